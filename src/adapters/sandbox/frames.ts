import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Frame } from '../../domain/sandbox.js';

// Frame layout written by sandbox/harness/channel.cjs. The MAC covers the exact
// bytes of the data, so we verify before parsing anything the job produced.
const FRAME = /^\{"seq":(\d{1,9}),"type":("(?:[^"\\]|\\.){1,64}"),"data":(.*),"mac":"([0-9a-f]{64})"\}$/;

export interface FrameParser {
  push(line: string): void;
  readonly frames: Frame[];
  readonly rejected: number;
  readonly helloSeen: boolean;
}

/** `onFrame` sees each authenticated frame as it arrives (the per-test watch, test-watch.ts). */
export function createFrameParser(key: string, onFrame?: (f: Frame) => void): FrameParser {
  const frames: Frame[] = [];
  let rejected = 0;
  let next = 1;
  let helloSeen = false;
  return {
    frames,
    get rejected() {
      return rejected;
    },
    get helloSeen() {
      return helloSeen;
    },
    push(line: string) {
      if (!helloSeen && line === '{"seq":0,"type":"hello","data":null,"mac":""}') {
        helloSeen = true;
        return;
      }
      const m = FRAME.exec(line);
      if (!m) {
        rejected++;
        return;
      }
      const seq = Number(m[1]);
      const type = JSON.parse(m[2] as string) as string;
      const body = m[3] as string;
      const expected = createHmac('sha256', key).update(`${seq}|${type}|${body}`).digest();
      const given = Buffer.from(m[4] as string, 'hex');
      if (seq !== next || !timingSafeEqual(expected, given)) {
        rejected++;
        return;
      }
      next++;
      const frame = { seq, type, data: JSON.parse(body) as unknown };
      frames.push(frame);
      onFrame?.(frame);
    },
  };
}
