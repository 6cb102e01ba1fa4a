// The harness's V8 start-up snapshot: jobs on the process backends start from it, Docker's from boot.cjs. Both
// must give the same verdicts and messages for the same job, the blob (readable by jobs) must name no path of the
// grader's, and a snapshot that cannot be made must leave jobs starting from boot.cjs.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeCacheFor } from '../../src/adapters/sandbox/code-cache.js';
import { createFrameParser } from '../../src/adapters/sandbox/frames.js';
import { harnessSnapshotFor } from '../../src/adapters/sandbox/harness-snapshot.js';
import { JOB_PERMISSIONS, programOf } from '../../src/adapters/sandbox/process-runner.js';
import { jobNodeArgs } from '../../src/runtime/node-flags.js';
import { bwrap } from '../../src/adapters/sandbox/bwrap.js';
import { unsafe } from '../../src/adapters/sandbox/unsafe.js';
import { ensureRootfs, SANDBOX_HARNESS, SANDBOX_ROOT } from '../../src/adapters/sandbox/rootfs.js';
import type { Frame, HarnessTest, SandboxJob } from '../../src/domain/sandbox.js';
import { jobTest } from '../../src/stages/run/test-rewrite.js';
import { LimitsSchema } from '../../src/domain/rubric.js';
import { gradeInline, HARNESS_DIR, inlineRubric } from '../helpers.js';

const work = mkdtempSync(join(tmpdir(), 'evigrade-snapshot-test-'));
let rootfs: string;
const LIMITS = LimitsSchema.parse({});
const args = jobNodeArgs(LIMITS.memory_mb);

const cacheDirBefore = process.env.EVIGRADE_CACHE_DIR;
beforeAll(async () => {
  process.env.EVIGRADE_CACHE_DIR = join(work, 'cache');
  rootfs = await ensureRootfs(join(work, 'base'), HARNESS_DIR);
}, 120_000);
afterAll(() => {
  if (cacheDirBefore === undefined) delete process.env.EVIGRADE_CACHE_DIR;
  else process.env.EVIGRADE_CACHE_DIR = cacheDirBefore;
  rmSync(work, { recursive: true, force: true });
});

const SOLUTION =
  'export const add = (a, b) => a + b;\nexport const wrong = () => 41;\nexport const boom = () => { throw new TypeError("bad " + [3, 1, 2].toSorted().join()); };\n';
const TESTS = [
  {
    name: 'cjs.test.js',
    source: `const { add, wrong, boom } = require('./solution');
describe('cjs', () => {
  test('adds', () => { expect(add(1, 2)).toBe(3); });
  test.each([[1, 1, 2], [2, 2, 5]])('add(%i, %i)', (a, b, c) => { expect(add(a, b)).toEqual(c); });
  test('wrong', () => { expect({ v: wrong() }).toStrictEqual({ v: 42 }); });
  test('throws', () => { expect(() => boom()).toThrow('bad 1,2,3'); });
  test('uncaught', () => { boom(); });
  test('mock', () => { const f = jest.fn(); f(2); expect(f).toHaveBeenCalledWith(3); });
});
`,
  },
  // An ES-module test with top-level await goes through Node's own loader (dynamic import, hooks.mjs).
  {
    name: 'tla.spec.js',
    source: `import { add } from './solution';\nconst n = await Promise.resolve(2);\ntest('tla', () => { expect(add(n, n)).toBe(5); });\n`,
  },
  {
    name: 'n.test.js',
    source: `const { test } = require('node:test');\nconst assert = require('node:assert');\ntest('node', () => { assert.strictEqual(1, 2); });\n`,
  },
];

/** The job's frames, run by bubblewrap exactly as its backend runs a job, with `program` as what it starts. */
function framesOf(program: readonly string[], tests: readonly HarnessTest[] = TESTS, solution = SOLUTION): Frame[] {
  const jobDir = mkdtempSync(join(work, 'job-'));
  mkdirSync(join(jobDir, SANDBOX_ROOT), { recursive: true });
  writeFileSync(join(jobDir, SANDBOX_ROOT, 'solution.js'), solution);
  const key = randomBytes(32).toString('hex');
  const payload = {
    key,
    mode: 'run',
    root: SANDBOX_ROOT,
    entry: './solution',
    tests,
    only: null,
    stubNames: ['add', 'wrong', 'boom'],
    testTimeoutMs: 5000,
    outputBytes: 65536,
    builtins: [],
  };
  const cmd = bwrap.command({ rootfs, jobDir, limits: LIMITS, program, uid: 65534 });
  const r = spawnSync(cmd.file, cmd.args, {
    input: JSON.stringify(payload),
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  expect(r.status, String(r.stderr)).toBe(0);
  const parser = createFrameParser(key);
  for (const line of String(r.output[3]).split('\n')) if (line) parser.push(line);
  expect(parser.rejected).toBe(0);
  return parser.frames;
}

describe('the harness start-up snapshot', () => {
  it('is what process-backend jobs start from, and names no path of the grader’s', async () => {
    const snap = await harnessSnapshotFor(rootfs, args);
    expect(snap).toMatch(/^\/evigrade\/snapshot-[0-9a-f]{16}\.blob$/);
    expect(
      await programOf({ runtime: 'node', limits: LIMITS, payload: {} } as unknown as SandboxJob, rootfs, bwrap),
    ).toEqual(['/usr/bin/node', ...args, ...JOB_PERMISSIONS, '--snapshot-blob', snap]);
    const blob = readFileSync(join(rootfs, snap as string));
    expect(blob.length).toBeGreaterThan(1_000_000);
    // A job can read the blob: it names no grader path (where root file systems and caches live).
    expect(blob.includes(work)).toBe(false);
  }, 120_000);

  it('gives the same frames as a job started from boot.cjs (as Docker starts it)', async () => {
    const snap = (await harnessSnapshotFor(rootfs, args)) as string;
    const cache = await codeCacheFor(rootfs, args);
    const fromSnapshot = framesOf(['/usr/bin/node', ...args, '--snapshot-blob', snap]);
    const fromBoot = framesOf(['/usr/bin/node', ...args, SANDBOX_HARNESS, ...(cache ? [cache] : [])]);
    const shape = (fs: Frame[]): unknown[] =>
      fs.filter((f) => f.type !== 'result' && f.type !== 'start').map((f) => [f.type, f.data]);
    const results = (fs: Frame[]): unknown[] =>
      fs
        .filter((f) => f.type === 'result')
        .map((f) => {
          const { durationMs: _, ...rest } = f.data as { durationMs: number };
          return rest;
        });
    expect(results(fromSnapshot)).toEqual(results(fromBoot));
    expect(shape(fromSnapshot)).toEqual(shape(fromBoot));
    // And they are the verdicts Jest gives: the wrong ones fail with Jest's messages, the module test ran.
    const byStatus = results(fromSnapshot).map((r) => (r as { status: string }).status);
    expect(byStatus).toEqual([
      'passed',
      'passed',
      'failed',
      'failed',
      'passed',
      'failed',
      'failed',
      'failed',
      'failed',
    ]);
    expect(JSON.stringify(results(fromSnapshot))).toContain('Expected: 5');
    const loadErrors = fromSnapshot
      .filter((f) => f.type === 'collected')
      .map((f) => (f.data as { error: unknown }).error);
    expect(loadErrors).toEqual([null, null, null]);
    expect(JSON.stringify(fromSnapshot)).not.toContain(rootfs);
  }, 120_000);

  it('starts with every intrinsic already frozen, and the same JavaScript as a job locked down at its start', async () => {
    const snap = (await harnessSnapshotFor(rootfs, args)) as string;
    const cache = await codeCacheFor(rootfs, args);
    // What the submission's realm has: ES2023's copying methods (es2023.cjs, printed as built-ins), frozen shared
    // intrinsics it cannot patch, and none of the four V8 features jobs run without (runtime/node-flags.ts JOB_V8_FEATURES).
    const solution = `exports.probe = () => {
  const tried = (f) => { try { return String(f()); } catch (e) { return e.constructor.name + ': ' + e.message; } };
  return [
    [3, 1, 2].toSorted().join(), [1, 2, 3].toReversed().join(), [1, 2, 3].toSpliced(1, 1, 'x').join(), [1, 2].with(-1, 9).join(),
    new Int8Array([3, -1]).toSorted().join(), String([].toSorted), Array.prototype[Symbol.unscopables].toSorted,
    Object.isFrozen(Array.prototype), Object.isFrozen(Error), tried(() => { Array.prototype.toSorted = () => 'forged'; }),
    tried(() => new RegExp('a', 'v')), typeof Intl.NumberFormat.prototype.formatRange, typeof SharedArrayBuffer,
  ].join(' | ');
};
`;
    const tests = [
      {
        name: 'p.test.js',
        source: "const { probe } = require('./solution');\ntest('probe', () => { expect(probe()).toBe('?'); });\n",
      },
    ];
    const received = (fs: Frame[]): string => {
      const r = fs.find((f) => f.type === 'result')?.data as { status: string; message: string };
      expect(r.status).toBe('failed');
      return /Received: "(.*)"/.exec(r.message)?.[1] ?? r.message;
    };
    const fromSnapshot = received(framesOf(['/usr/bin/node', ...args, '--snapshot-blob', snap], tests, solution));
    const fromBoot = received(
      framesOf(['/usr/bin/node', ...args, SANDBOX_HARNESS, ...(cache ? [cache] : [])], tests, solution),
    );
    expect(fromSnapshot).toBe(fromBoot);
    expect(fromSnapshot.split(' | ')).toEqual([
      '1,2,3',
      '3,2,1',
      '1,x,3',
      '1,9',
      '-1,3',
      'function toSorted() { [native code] }',
      'true',
      'true',
      'true',
      "TypeError: Cannot assign to read only property 'toSorted' of object '[object Array]'",
      "SyntaxError: Invalid flags supplied to RegExp constructor 'v'",
      'undefined',
      'undefined',
    ]);
  }, 120_000);

  it('gives every job its own randomness (Math.random, crypto), though jobs keep the snapshot’s string-hash seed', async () => {
    const snap = (await harnessSnapshotFor(rootfs, args)) as string;
    const cache = await codeCacheFor(rootfs, args);
    expect(args).toContain('--no-rehash-snapshot');
    // A hidden test may draw its inputs at random: a submission that could foresee them would know the answers.
    const solution = `exports.draw = () => [Math.random(), Math.random(), require('crypto').randomUUID(), require('crypto').randomBytes(8).toString('hex')].join(' ');\n`;
    const tests = [
      {
        name: 'r.test.js',
        source: "const { draw } = require('./solution');\ntest('draw', () => { expect(draw()).toBe('?'); });\n",
      },
    ];
    const drawn = (program: string[]): string[] => {
      const r = framesOf(program, tests, solution).find((f) => f.type === 'result')?.data as { message: string };
      return (/Received: "(.*)"/.exec(r.message)?.[1] ?? r.message).split(' ');
    };
    const fromSnapshot = ['/usr/bin/node', ...args, '--snapshot-blob', snap];
    const draws = [
      drawn(fromSnapshot),
      drawn(fromSnapshot),
      drawn(['/usr/bin/node', ...args, SANDBOX_HARNESS, ...(cache ? [cache] : [])]),
    ];
    for (const d of draws) expect(d).toHaveLength(4);
    // No value repeats, within a job or across them.
    expect(new Set(draws.flat()).size).toBe(12);
  }, 120_000);

  it('runs an ES-module test as the grader rewrote it (the job parses it only when handed no rewrite)', async () => {
    const snap = (await harnessSnapshotFor(rootfs, args)) as string;
    const program = ['/usr/bin/node', ...args, '--snapshot-blob', snap];
    const source = `import { add } from './solution';\ntest('as written', () => { expect(add(1, 1)).toBe(2); });\n`;
    const made = jobTest({ name: 'e.test.js', source, sha256: '', jobName: 'e.test.js', jobSource: source }, true);
    expect(made.cjs?.imports).toEqual(['./solution']);
    // The same test under another name, in the grader's rewrite: the job must run that one, not re-derive it.
    const cjs = { code: (made.cjs?.code ?? '').replace("'as written'", "'as rewritten'"), imports: ['./solution'] };
    const names = (fs: Frame[]): unknown[] =>
      fs
        .filter((f) => f.type === 'result')
        .map((f) => [(f.data as { path: string[] }).path.join(' '), (f.data as { status: string }).status]);
    expect(names(framesOf(program, [{ name: 'e.test.js', source, cjs }]))).toEqual([['as rewritten', 'passed']]);
    expect(names(framesOf(program, [{ name: 'e.test.js', source }]))).toEqual([['as written', 'passed']]);
    // null: the grader found no rewrite (top-level await), so Node's loader runs the file as written.
    const tla = `import { add } from './solution';\nconst two = await Promise.resolve(2);\ntest('tla', () => { expect(add(1, 1)).toBe(two); });\n`;
    const tlaTest = jobTest({ name: 't.test.js', source: tla, sha256: '', jobName: 't.test.js', jobSource: tla }, true);
    expect(tlaTest.cjs).toBeNull();
    expect(names(framesOf(program, [tlaTest]))).toEqual([['tla', 'passed']]);
  }, 120_000);

  it('checks a blob kept from an earlier run before using it, and makes a new one when it does not start', async () => {
    const name = (await harnessSnapshotFor(rootfs, args)) as string;
    const kept = join(work, 'cache', 'snapshot', `${basename(rootfs)}-${basename(name)}`);
    const good = readFileSync(kept);
    // What another build of node left under the same name: node refuses it and every job would die at start-up.
    writeFileSync(kept, good.subarray(0, 4096));
    const again = await ensureRootfs(join(work, 'second-base'), HARNESS_DIR);
    expect(basename(again)).toBe(basename(rootfs));
    expect(await harnessSnapshotFor(again, args)).toBe(name);
    const placed = readFileSync(join(again, name));
    expect(placed.length).toBeGreaterThan(1_000_000);
    expect(readFileSync(kept).length).toBe(placed.length);
    // The next run checks the new kept blob once, and marks it as started under this node binary and these flags;
    // the truncated one was never marked.
    const marks = (): string[] => readdirSync(join(work, 'cache', 'snapshot')).filter((f) => f.startsWith('started-'));
    const before = marks();
    expect(await harnessSnapshotFor(await ensureRootfs(join(work, 'third-base'), HARNESS_DIR), args)).toBe(name);
    expect(marks().filter((m) => !before.includes(m))).toHaveLength(1);
    // And no later run checks it again, though each root file system hard-links node (which changes its ctime).
    const after = marks();
    const fourth = await ensureRootfs(join(work, 'fourth-base'), HARNESS_DIR);
    expect(await harnessSnapshotFor(fourth, args)).toBe(name);
    expect(marks()).toEqual(after);
    // A kept blob that starts is hard-linked into the root file system, not copied (7 MB a command).
    expect(statSync(join(fourth, name)).ino).toBe(statSync(kept).ino);
  }, 120_000);

  it('is not used where a job sees the host paths (the unsafe backend), which still runs a top-level-await test', async () => {
    const job = { runtime: 'node', limits: LIMITS, payload: {} } as unknown as SandboxJob;
    expect((await programOf(job, rootfs, unsafe)).slice(0, args.length + 2)).toEqual([
      '/usr/bin/node',
      ...args,
      SANDBOX_HARNESS,
    ]);
    // Through Node's loader and hooks.mjs, found at the harness's host path: from a snapshot it would be /evigrade/.
    const rubric = inlineRubric({ 'tla.spec.js': TESTS[1]?.source as string });
    const r = await gradeInline('unsafe', rubric, { 'solution.js': SOLUTION });
    expect(r.tests.map((t) => [t.name, t.status])).toEqual([['tla', 'failed']]);
    expect(r.tests[0]?.message).toContain('Expected: 5');
  }, 120_000);

  it('leaves jobs starting from boot.cjs when the snapshot cannot be made', async () => {
    const broken = join(work, 'broken-harness');
    cpSync(HARNESS_DIR, broken, { recursive: true });
    writeFileSync(join(broken, 'snapshot.cjs'), "throw new Error('no snapshot here');\n");
    const other = await ensureRootfs(join(work, 'base'), broken);
    expect(other).not.toBe(rootfs);
    expect(await harnessSnapshotFor(other, args)).toBeNull();
    const program = await programOf(
      { runtime: 'node', limits: LIMITS, payload: {} } as unknown as SandboxJob,
      other,
      bwrap,
    );
    expect(program.slice(0, args.length + JOB_PERMISSIONS.length + 2)).toEqual([
      '/usr/bin/node',
      ...args,
      ...JOB_PERMISSIONS,
      SANDBOX_HARNESS,
    ]);
    expect(program.join(' ')).not.toContain('--snapshot-blob');
  }, 120_000);
});
