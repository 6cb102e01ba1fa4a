import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { cacheDir, type CacheKind } from '../../runtime/cache.js';
import { sha256 } from '../../util/hash.js';
import { SANDBOX_HARNESS_DIR } from './rootfs.js';
import { JOB_ENV } from './types.js';

// A warm-up job made only of our own code: it exercises the runner, `expect`, the ES-module path (acorn and the
// ESM-to-CommonJS compile, as exercism-style tests and solutions take it), passing and failing matchers (the
// message and diff printers a failing submission needs) and the node:test shim, so their functions land in V8's
// code cache instead of being compiled in every job (a `say` job: −3 ms passing, −5 ms failing; bench/README.md).
const WARM_SPEC = `import twice, { add } from './solution';

describe('esm', () => {
  test('passes', () => {
    expect(add(1, 2)).toBe(3);
    expect(twice({ a: 1 })).toEqual([{ a: 1 }, { a: 1 }]);
    expect(twice('x')).toStrictEqual(['x', 'x']);
    expect(() => { throw new Error('boom'); }).toThrow('boom');
    expect([1, 2]).toContain(2);
    expect('abc').toMatch(/b/);
    expect(0.1 + 0.2).toBeCloseTo(0.3);
    expect(undefined).toBeUndefined();
    expect(twice(1)).toHaveLength(2);
    expect(add).not.toBe(twice);
  });
  test('fails on objects', () => { expect(twice({ a: 1 })).toEqual([{ a: 2 }]); });
  test('fails on strings', () => { expect('one hundred').toBe('one hundred one'); });
  test('fails to throw', () => { expect(() => add(1, 2)).toThrow(); });
  test('mocks', () => { const f = jest.fn(); f(1); expect(f).toHaveBeenCalledWith(1); });
});
`;
const WARMUP = {
  'solution.js': 'export const add = (a, b) => a + b;\nexport default function twice(x) { return [x, x]; }\n',
  tests: [
    { name: 'warm.spec.js', source: WARM_SPEC },
    { name: 'warm.test.js', source: "const { add } = require('./solution');\ndescribe('d', () => { test.each([[1, 1, 2]])('add %i', (a, b, c) => { expect(add(a, b)).toEqual(c); }); test('x', async () => { await expect(Promise.resolve(1)).resolves.toBe(1); }); });\n" },
    { name: 'warm.node.test.js', source: "const { test } = require('node:test');\nconst assert = require('node:assert');\ntest('n', () => { assert.strictEqual(1, 1); });\n" },
  ],
};
/** A cache made by another warm-up is kept under another name (what it holds depends on what ran). */
const WARMUP_HASH = sha256(JSON.stringify(WARMUP)).slice(0, 8);

const pending = new Map<string, Promise<string | null>>();

/**
 * Places a file made for a root file system (`name` in its harness directory) and returns its sandbox path, or
 * null if anything goes wrong. Made once by `make(tmp)` and kept in the grader's cache directory under the root
 * file system's name (a hash of the harness, node binary and version), so later runs link (or copy) it instead, after
 * `check` (when given) accepts the copy; one it refuses is made again. Concurrent callers share one attempt.
 */
export function placeMade(
  rootfs: string,
  kind: CacheKind,
  name: string,
  make: (tmp: string) => Promise<void>,
  check: (file: string) => Promise<void> = async () => undefined,
): Promise<string | null> {
  const dest = join(rootfs, SANDBOX_HARNESS_DIR, name);
  const kept = join(cacheDir(kind), `${basename(rootfs)}-${name}`);
  if (!pending.has(dest)) pending.set(dest, placeOrMake(dest, kept, make, check).then(() => `${SANDBOX_HARNESS_DIR}/${name}`, () => null));
  return pending.get(dest) as Promise<string | null>;
}

async function placeOrMake(dest: string, kept: string, make: (tmp: string) => Promise<void>, check: (file: string) => Promise<void>): Promise<void> {
  const tmp = `${dest}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    // Hard-linked where it can be (the start-up snapshot is 7 MB: a copy cost every command ≈ 2.5 ms of CPU and as
    // much wall): jobs only ever see it read-only, and the kept file is only ever replaced by a rename, never
    // written in place. Copied across file systems.
    await link(kept, tmp).catch(() => copyFile(kept, tmp));
    await check(tmp);
    await rename(tmp, dest);
    return;
  } catch {
    await rm(tmp, { force: true });
  }
  try {
    await make(tmp);
    await rename(tmp, dest);
  } finally {
    await rm(tmp, { force: true });
  }
  // Kept for the next run; a failure here only costs that run a warm-up.
  const keptTmp = `${kept}.${randomBytes(4).toString('hex')}.tmp`;
  await mkdir(join(kept, '..'), { recursive: true, mode: 0o700 })
    .then(() => copyFile(dest, keptTmp))
    .then(() => rename(keptTmp, kept))
    .catch(() => rm(keptTmp, { force: true }));
}

/**
 * The sandbox path of a V8 code cache for the harness under exactly these node flags (jobs that start from
 * boot.cjs on a process backend: the unsafe backend's, and any when no start-up snapshot could be made; Docker's
 * image has none). Saves the harness's parse and compile in
 * every job; null (no cache) if anything goes wrong. Made by a warm-up run (~0.15 s of CPU); V8 itself rejects a
 * cache made by another V8 or for other flags.
 */
export function codeCacheFor(rootfs: string, nodeArgs: readonly string[]): Promise<string | null> {
  const name = `cache-${sha256(nodeArgs.join('\0')).slice(0, 16)}-${WARMUP_HASH}.bin`;
  return placeMade(rootfs, 'code-cache', name, (tmp) =>
    runWarmUp([...nodeArgs, join(rootfs, SANDBOX_HARNESS_DIR, 'boot.cjs')], {
      EVIGRADE_CACHE_OUT: tmp,
      EVIGRADE_SCRIPT_NAME: `${SANDBOX_HARNESS_DIR}/harness.cjs`,
    }),
  );
}

/** What a host node run left: its exit code, what it wrote on fd 3 (the harness's frames) and its stderr's end. */
export interface HostRun {
  readonly code: number | null;
  readonly frames: string;
  readonly stderr: string;
}

/**
 * Runs the grader's own node on the host with `argv` and a job's environment plus `env`, `input` on its stdin, and
 * waits for it to exit (killed after `timeoutMs`). Only for our own code: warm-ups, snapshot builds and checks.
 */
export function runHostNode(
  argv: readonly string[],
  opts: { env?: Record<string, string>; cwd?: string; input?: string; timeoutMs?: number } = {},
): Promise<HostRun> {
  return new Promise<HostRun>((resolve, reject) => {
    const child = spawn(process.execPath, [...argv], {
      stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
      env: { ...JOB_ENV, ...opts.env },
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
    });
    let frames = '';
    let stderr = '';
    (child.stdio[3] as NodeJS.ReadableStream | null)?.on('data', (d: Buffer) => (frames += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    // A child that dies before reading its input (a kept snapshot blob that no longer starts) closes the pipe: the
    // write then fails with EPIPE, which must not go unhandled (it would end the grader); the exit code tells.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(opts.input ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, frames, stderr });
    });
  });
}

/**
 * Runs the warm-up job, made only of our own code, on the host with `argv` (node flags, then what to start) and a
 * job's environment plus `env`; resolves once it has exited 0 after its `done` frame.
 */
export async function runWarmUp(argv: readonly string[], env: Record<string, string> = {}): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'evigrade-warm-'));
  try {
    await writeFile(join(dir, 'solution.js'), WARMUP['solution.js']);
    const payload = { key: randomBytes(32).toString('hex'), mode: 'run', root: dir, entry: './solution', tests: WARMUP.tests, only: null, stubNames: ['add'], testTimeoutMs: 5000, outputBytes: 65536, builtins: [] };
    const run = await runHostNode(argv, { env, input: JSON.stringify(payload) });
    if (run.code !== 0 || !run.frames.includes('"type":"done"')) throw new Error(`warm-up exited ${run.code}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
