import { describe, expect, it } from 'vitest';
import type { Frame, RawRun } from '../../src/domain/sandbox.js';
import type { ExpectedTest } from '../../src/domain/queue.js';
import { interpretRun } from '../../src/stages/run/test-run.js';
import { foldAttempt, newAttemptState, settle } from '../../src/stages/run/attempts.js';
import { LimitsSchema } from '../../src/domain/rubric.js';

const expected: ExpectedTest[] = [
  { file: 'a.test.js', index: 0, path: ['s', 'one'] },
  { file: 'a.test.js', index: 1, path: ['s', 'two'] },
  { file: 'a.test.js', index: 2, path: ['s', 'three'] },
];
let seq = 0;
const f = (type: string, data: unknown): Frame => ({ seq: ++seq, type, data });
const collected = f('collected', {
  file: 'a.test.js',
  tests: expected.map((e) => ({ index: e.index, path: e.path })),
  error: null,
});
const result = (index: number, status: string, message = '') =>
  f('result', { file: 'a.test.js', index, path: expected[index]?.path, status, durationMs: 3, message });
const run = (frames: Frame[], extra: Partial<RawRun> = {}): RawRun => ({
  frames,
  rejectedFrames: 0,
  exitCode: 0,
  signal: null,
  timedOut: false,
  outputLimitHit: false,
  memoryLimitHit: false,
  pidsLimitHit: false,
  stdout: '',
  stderr: '',
  wallMs: 50,
  ...extra,
});
const limits = LimitsSchema.parse({ timeout_ms: 1000 });

describe('interpretRun', () => {
  it('takes authenticated results for the expected tests', () => {
    const i = interpretRun(
      run([collected, result(0, 'passed'), result(1, 'failed', 'nope'), result(2, 'skipped'), f('done', { files: 1 })]),
      expected,
    );
    expect([...i.results.entries()]).toEqual([
      ['a.test.js#0', { status: 'passed', durationMs: 3, message: '' }],
      ['a.test.js#1', { status: 'failed', durationMs: 3, message: 'nope' }],
      ['a.test.js#2', { status: 'skipped', durationMs: 3, message: '' }],
    ]);
    expect([i.complete, i.untrusted, i.events, i.flags]).toEqual([true, null, [], []]);
  });

  it("turns the harness's attempt notes into sandbox events and one warning flag per kind, trusting the job (issue 30)", () => {
    // One wire format for both harnesses: the note's code is the flag, its detail what was tried.
    const note = (kind: string, detail: string) => f('note', { code: `sandbox.attempt.${kind}`, detail });
    const i = interpretRun(
      run([
        collected,
        note('env', 'process.env.HF_TOKEN'),
        note('env', 'read PATH'),
        note('read_outside', 'fs.readFileSync("/etc/passwd")'),
        note('teleport', 'nowhere'),
        f('note', { code: 'attempt', detail: 'env: process.env.HOME' }),
        result(0, 'passed'),
        result(1, 'passed'),
        result(2, 'passed'),
        f('done', { files: 1 }),
      ]),
      expected,
    );
    expect([i.untrusted, i.events, i.flags.map((x) => [x.code, x.severity])]).toEqual([
      null,
      [
        { event: 'attempt', detail: 'sandbox.attempt.env: process.env.HF_TOKEN' },
        { event: 'attempt', detail: 'sandbox.attempt.env: read PATH' },
        { event: 'attempt', detail: 'sandbox.attempt.read_outside: fs.readFileSync("/etc/passwd")' },
      ],
      [
        ['sandbox.attempt.env', 'warning'],
        ['sandbox.attempt.read_outside', 'warning'],
      ],
    ]);
    expect(i.flags[0]?.message).toBe(
      "the submission tried to read an environment variable at run time (process.env.HF_TOKEN); it saw only the sandbox's own environment",
    );
  });

  it('distrusts a job whose registrations differ from the hidden tests', () => {
    const extra = f('collected', {
      file: 'a.test.js',
      tests: [{ index: 0, path: ['s', 'one'] }, ...expected.map((e) => ({ index: e.index + 1, path: e.path }))],
      error: null,
    });
    const i = interpretRun(run([extra, result(0, 'passed'), f('done', { files: 1 })]), expected);
    expect(i.untrusted).toContain('differ from the hidden tests');
    expect(i.flags.map((x) => x.code)).toEqual(['tampering.registration']);
  });

  it('ignores results whose path does not match the expected test', () => {
    const forged = f('result', {
      file: 'a.test.js',
      index: 0,
      path: ['other'],
      status: 'passed',
      durationMs: 1,
      message: '',
    });
    const i = interpretRun(run([collected, forged, f('done', { files: 1 })]), expected);
    expect(i.results.has('a.test.js#0')).toBe(false);
  });

  it('turns an authenticated frame it cannot interpret into a crash event and counts nothing from it', () => {
    const odd = [
      f('result', {
        file: 'a.test.js',
        index: 0,
        path: expected[0]?.path,
        status: 'passed-ish',
        durationMs: 1,
        message: '',
      }),
      f('result', { file: 'a.test.js', index: 1 }),
      f('banner', { hello: 1 }),
    ];
    const i = interpretRun(run([collected, ...odd, result(2, 'passed'), f('done', { files: 1 })]), expected);
    expect([[...i.results.keys()], i.events.map((e) => e.detail)]).toEqual([
      ['a.test.js#2'],
      [
        'the harness sent a "result" frame with status: Invalid option: expected one of "passed"|"failed"|"error"|"timeout"|"skipped"; it was ignored',
        'the harness sent a "result" frame with path: Invalid input: expected array, received undefined; status: Invalid option: expected one of "passed"|"failed"|"error"|"timeout"|"skipped"; durationMs: Invalid input: expected number, received undefined; message: Invalid input: expected string, received undefined; it was ignored',
        'the harness sent unknown frame type "banner"; it was ignored',
      ],
    ]);
  });

  it('records a kill while a test runs as in flight, with the timeout event', () => {
    const i = interpretRun(
      run([collected, result(0, 'passed'), f('start', { file: 'a.test.js', index: 1 })], {
        timedOut: true,
        exitCode: null,
        signal: 'SIGKILL',
        wallMs: 1000,
      }),
      expected,
    );
    expect([i.complete, i.inFlight, i.events.map((e) => e.event)]).toEqual([false, ['a.test.js#1'], ['timeout']]);
  });
});

describe('foldAttempt and settle', () => {
  it('charges a timeout to the running test and re-runs the rest', () => {
    const state = newAttemptState();
    const r1 = run([collected, result(0, 'passed'), f('start', { file: 'a.test.js', index: 1 })], {
      timedOut: true,
      exitCode: null,
      signal: 'SIGKILL',
      wallMs: 1000,
    });
    const next = foldAttempt(state, interpretRun(r1, expected), r1, expected, limits);
    expect(next).toEqual([expected[2]]);
    const r2 = run([collected, result(2, 'passed'), f('done', { files: 1 })]);
    expect(foldAttempt(state, interpretRun(r2, expected), r2, expected, limits)).toBeNull();
    expect(settle(state, expected).map((o) => o.status)).toEqual(['passed', 'timeout', 'passed']);
    expect(state.runs).toBe(2);
  });

  it('stops when a run makes no progress, failing what never reported', () => {
    const state = newAttemptState();
    const r = run([], { exitCode: 1 });
    expect(foldAttempt(state, interpretRun(r, expected), r, expected, limits)).toBeNull();
    expect(settle(state, expected)).toEqual(
      expected.map(() => ({
        status: 'error',
        durationMs: 0,
        message: 'no result: the job ended before this test reported',
      })),
    );
  });

  it('turns every verdict of a tampered job into an error', () => {
    const state = newAttemptState();
    const r = run([
      collected,
      result(0, 'passed'),
      result(1, 'failed'),
      result(2, 'skipped'),
      f('tamper', { code: 'tampering.intrinsics', detail: 'Object.is was replaced' }),
      f('done', { files: 1 }),
    ]);
    foldAttempt(state, interpretRun(r, expected), r, expected, limits);
    expect(settle(state, expected).map((o) => o.status)).toEqual(['error', 'error', 'skipped']);
  });
});
