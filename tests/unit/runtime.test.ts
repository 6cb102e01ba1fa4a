// The speed machinery's one home (src/runtime/): the cache root and its layout, atomic writes, the V8 code-cache loader.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keepCacheEntry, writeAtomic, writeAtomicSync } from '../../src/runtime/atomic.js';
import { CACHE_LAYOUT, cacheDir, cacheRoot } from '../../src/runtime/cache.js';
import { ROOT } from '../helpers.js';

const work = mkdtempSync(join(tmpdir(), 'evigrade-runtime-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('atomic writes', () => {
  it('write the whole file with its mode, make the folder when asked, and leave no temporary file', async () => {
    const dir = join(work, 'made', 'here');
    writeAtomicSync(join(dir, 'a.json'), '{"a":1}', { mode: 0o600, dirMode: 0o700 });
    await writeAtomic(join(dir, 'b.txt'), 'b', { mode: 0o644 });
    expect([
      readFileSync(join(dir, 'a.json'), 'utf8'),
      statSync(join(dir, 'a.json')).mode & 0o777,
      statSync(dir).mode & 0o777,
      readFileSync(join(dir, 'b.txt'), 'utf8'),
      statSync(join(dir, 'b.txt')).mode & 0o777,
      readdirSync(dir).sort(),
    ]).toEqual(['{"a":1}', 0o600, 0o700, 'b', 0o644, ['a.json', 'b.txt']]);
  });

  it('throw the system error when the rename fails, and remove the temporary file', async () => {
    const dir = join(work, 'blocked');
    mkdirSync(join(dir, 'taken'), { recursive: true });
    writeFileSync(join(dir, 'taken', 'x'), 'x');
    expect(() => writeAtomicSync(join(dir, 'taken'), 'y', { mode: 0o644 })).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    await expect(writeAtomic(join(dir, 'taken'), 'y', { mode: 0o644 })).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  it('keep a cache entry when they can, and only say so when they cannot', () => {
    writeFileSync(join(work, 'a-file'), '');
    expect([
      keepCacheEntry(join(work, 'kept', 'entry.bin'), 'data'),
      keepCacheEntry(join(work, 'a-file', 'entry.bin'), 'data'),
      readFileSync(join(work, 'kept', 'entry.bin'), 'utf8'),
    ]).toEqual([true, false, 'data']);
  });
});

describe('the V8 code-cache loader', () => {
  const file = join(work, 'bundle.cjs');
  const source =
    "const path = require('node:path');\nmodule.exports = { twice: (x) => x * 2, base: path.basename(__filename) };\n";
  writeFileSync(file, source);
  const cache = join(work, 'cache', 'bundle.bin');
  // Each run in a process of its own, as the CLI and the lint threads use it: within one process V8 answers a second
  // compile of the same source from its own memory and never looks at the cache it is handed.
  const run = (cacheFile: string | null): unknown[] => {
    const code = `import { runCachedScript } from ${JSON.stringify(join(ROOT, 'dist', 'runtime', 'code-cache.js'))};
      const s = runCachedScript(${JSON.stringify(file)}, ${JSON.stringify(source)}, ${JSON.stringify(cacheFile)});
      console.log(JSON.stringify([s.exports.twice(21), s.exports.base, s.keep(), s.keep()]));`;
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    return JSON.parse(out.stdout || JSON.stringify([out.stderr]));
  };

  it('runs the script as a CommonJS module, keeps its cache once, starts from it, and remakes a damaged one', () => {
    expect(run(cache)).toEqual([42, 'bundle.cjs', true, false]);
    const made = readFileSync(cache);
    expect(made.length).toBeGreaterThan(0);
    expect([run(cache), readFileSync(cache).equals(made)]).toEqual([[42, 'bundle.cjs', false, false], true]);
    const damaged = Buffer.alloc(made.length, 7);
    writeFileSync(cache, damaged);
    expect([run(cache), readFileSync(cache).equals(damaged)]).toEqual([[42, 'bundle.cjs', true, false], false]);
  });

  it('runs without a cache when given none', () => {
    expect(run(null)).toEqual([42, 'bundle.cjs', false, false]);
  });
});

describe('the cache root', () => {
  it('is EVIGRADE_CACHE_DIR, else $XDG_CACHE_HOME/evigrade, with one folder per kind', () => {
    const saved = { dir: process.env.EVIGRADE_CACHE_DIR, xdg: process.env.XDG_CACHE_HOME };
    try {
      process.env.EVIGRADE_CACHE_DIR = '/c';
      const set = [cacheRoot(), cacheDir('judge')];
      delete process.env.EVIGRADE_CACHE_DIR;
      process.env.XDG_CACHE_HOME = '/x';
      expect([...set, cacheRoot(), cacheDir('lint')]).toEqual(['/c', '/c/judge', '/x/evigrade', '/x/evigrade/lint']);
    } finally {
      for (const [k, v] of [
        ['EVIGRADE_CACHE_DIR', saved.dir],
        ['XDG_CACHE_HOME', saved.xdg],
      ] as const)
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  });

  it('has its layout documented: docs/performance.md names every folder', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'performance.md'), 'utf8');
    expect(Object.keys(CACHE_LAYOUT).filter((kind) => !doc.includes(`\`${kind}/\``))).toEqual([]);
  });
});
