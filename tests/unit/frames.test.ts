import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createFrameParser } from '../../src/adapters/sandbox/frames.js';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { ser } = require('../../sandbox/harness/channel.cjs') as { ser: (v: unknown) => string };
const { createHmacSha256 } = require('../../sandbox/harness/hmac.cjs') as {
  createHmacSha256: (key: string) => (message: string) => string;
};
const key = 'k'.repeat(64);
const frame = (seq: number, type: string, data: unknown, k = key): string => {
  const body = ser(data);
  const mac = createHmac('sha256', k).update(`${seq}|${type}|${body}`).digest('hex');
  return `{"seq":${seq},"type":${JSON.stringify(type)},"data":${body},"mac":"${mac}"}`;
};

describe('results channel frames', () => {
  it('accepts frames made with the key, in sequence', () => {
    const p = createFrameParser(key);
    p.push('{"seq":0,"type":"hello","data":null,"mac":""}');
    p.push(frame(1, 'result', { status: 'passed', path: ['a', 'b > c'], n: 1.5 }));
    p.push(frame(2, 'done', {}));
    expect([p.helloSeen, p.rejected, p.frames]).toEqual([
      true,
      0,
      [
        { seq: 1, type: 'result', data: { status: 'passed', path: ['a', 'b > c'], n: 1.5 } },
        { seq: 2, type: 'done', data: {} },
      ],
    ]);
  });

  it('rejects a wrong key, a replay, a skipped sequence number and junk', () => {
    const p = createFrameParser(key);
    p.push(frame(1, 'result', { status: 'passed' }, 'x'.repeat(64)));
    p.push(frame(1, 'result', { status: 'failed' }));
    p.push(frame(1, 'result', { status: 'failed' }));
    p.push(frame(3, 'done', {}));
    p.push('ok 1 - looks like TAP');
    p.push('{"seq":2,"type":"result","data":{"status":"passed"},"mac":"' + '0'.repeat(64) + '"}');
    expect([p.rejected, p.frames.length]).toEqual([5, 1]);
  });

  it('serialises without consulting polluted toJSON', () => {
    const polluted = Object.prototype as unknown as { toJSON?: () => unknown };
    polluted.toJSON = () => ({ status: 'passed' });
    try {
      expect(ser({ status: 'failed', list: [1, 'x', null] })).toBe('{"status":"failed","list":[1,"x",null]}');
    } finally {
      delete polluted.toJSON;
    }
  });

  it("signs with the harness's own HMAC-SHA256 exactly as node:crypto does (the grader checks with it)", () => {
    // Keys shorter than, exactly, and longer than a block; messages around the padding boundaries (55/56/64
    // bytes), several blocks, non-ASCII text and a lone surrogate (encoded as U+FFFD, as Buffer.from does).
    const keys = ['k', 'ab'.repeat(32), 'x'.repeat(65), 'é€😀'.repeat(7)];
    const messages = [
      '',
      'a',
      'x'.repeat(55),
      'x'.repeat(56),
      'y'.repeat(64),
      'z'.repeat(119),
      'w'.repeat(1000),
      'é€😀\ud800!',
    ];
    for (const k of keys) {
      const sign = createHmacSha256(k);
      for (const m of messages)
        expect(sign(m)).toBe(createHmac('sha256', Buffer.from(k)).update(Buffer.from(m)).digest('hex'));
    }
  });
});
