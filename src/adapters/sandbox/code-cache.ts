import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256 } from '../../util/hash.js';
import { SANDBOX_HARNESS_DIR } from './rootfs.js';

// A warm-up job made only of our own code: it exercises the runner, `expect`
// and the node:test shim so their functions land in V8's code cache.
const WARMUP = {
  'solution.js': 'module.exports = { add: (a, b) => a + b };\n',
  tests: [
    { name: 'warm.test.js', source: "const { add } = require('./solution');\ndescribe('d', () => { test.each([[1, 1, 2]])('add %i', (a, b, c) => { expect(add(a, b)).toEqual(c); }); test('x', async () => { await expect(Promise.resolve(1)).resolves.toBe(1); }); });\n" },
    { name: 'warm.node.test.js', source: "const { test } = require('node:test');\nconst assert = require('node:assert');\ntest('n', () => { assert.strictEqual(1, 1); });\n" },
  ],
};

const pending = new Map<string, Promise<string | null>>();

/**
 * The sandbox path of a V8 code cache for the harness under exactly these node
 * flags, made once per grader process on the host. Saves the harness's parse
 * and compile in every job; null (no cache) if anything goes wrong.
 */
export function codeCacheFor(rootfs: string, nodeArgs: readonly string[]): Promise<string | null> {
  const name = `cache-${sha256(nodeArgs.join('\0')).slice(0, 16)}.bin`;
  const key = join(rootfs, SANDBOX_HARNESS_DIR, name);
  if (!pending.has(key)) pending.set(key, build(rootfs, nodeArgs, key).then(() => `${SANDBOX_HARNESS_DIR}/${name}`, () => null));
  return pending.get(key) as Promise<string | null>;
}

async function build(rootfs: string, nodeArgs: readonly string[], dest: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'evigrade-warm-'));
  const tmp = `${dest}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(join(dir, 'solution.js'), WARMUP['solution.js']);
    const payload = { key: randomBytes(32).toString('hex'), mode: 'run', root: dir, entry: './solution', tests: WARMUP.tests, only: null, stubNames: ['add'], testTimeoutMs: 5000, outputBytes: 65536, builtins: [] };
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [...nodeArgs, join(rootfs, SANDBOX_HARNESS_DIR, 'boot.cjs')], {
        stdio: ['pipe', 'ignore', 'ignore', 'pipe'],
        env: { PATH: '/usr/bin:/bin', EVIGRADE_CACHE_OUT: tmp, EVIGRADE_SCRIPT_NAME: `${SANDBOX_HARNESS_DIR}/harness.cjs` },
      });
      (child.stdio[3] as NodeJS.ReadableStream | null)?.resume();
      child.stdin?.end(JSON.stringify(payload));
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else reject(new Error(`warm-up exited ${code}`));
      });
    });
    await rename(tmp, dest);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await rm(tmp, { force: true });
  }
}
