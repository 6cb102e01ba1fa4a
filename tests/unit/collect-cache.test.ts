// The on-disk collection cache: a kept collection is read back instead of collecting again; an entry that does
// not validate, or a collection that failed, never stands in for a real one.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedCollect } from '../../src/adapters/fs/collect-cache.js';
import type { ExpectedTest } from '../../src/domain/queue.js';

const EXPECTED: ExpectedTest[] = [
  { file: 'leap.spec.js', index: 0, path: ['A leap year', 'year 2000'] },
  { file: 'leap.spec.js', index: 1, path: ['A leap year', 'year 1900'] },
];
const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'evigrade-collect-'));
  dirs.push(d);
  return join(d, 'collect');
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function counting(result: () => ExpectedTest[]): { calls: () => number; collect: () => Promise<ExpectedTest[]> } {
  let n = 0;
  return { calls: () => n, collect: async () => (n++, result()) };
}

describe('cachedCollect', () => {
  it('collects once per key and reads the kept collection back afterwards; another key collects again', async () => {
    const dir = tmp();
    const c = counting(() => EXPECTED);
    const runs = [
      await cachedCollect(dir, 'k1', c.collect),
      await cachedCollect(dir, 'k1', c.collect),
      await cachedCollect(dir, 'k2', c.collect),
    ];
    expect([runs, c.calls(), JSON.parse(readFileSync(join(dir, 'k1.json'), 'utf8'))]).toEqual([
      [EXPECTED, EXPECTED, EXPECTED],
      2,
      EXPECTED,
    ]);
  });

  it('collects again over an entry that does not validate (corrupt, empty, or with foreign keys)', async () => {
    const dir = tmp();
    await cachedCollect(dir, 'k', async () => EXPECTED);
    const c = counting(() => EXPECTED);
    for (const bad of ['{not json', '[]', JSON.stringify([{ ...EXPECTED[0], extra: 1 }])]) {
      writeFileSync(join(dir, 'k.json'), bad);
      expect(await cachedCollect(dir, 'k', c.collect)).toEqual(EXPECTED);
    }
    expect(c.calls()).toBe(3);
  });

  it('keeps nothing when the collection fails: the error reaches the caller every time', async () => {
    const dir = tmp();
    const failing = async (): Promise<ExpectedTest[]> => {
      throw new Error('the test files register no tests');
    };
    await expect(cachedCollect(dir, 'k', failing)).rejects.toThrow('the test files register no tests');
    await expect(cachedCollect(dir, 'k', failing)).rejects.toThrow('the test files register no tests');
  });
});
