import { describe, expect, it } from 'vitest';
import type { Frame, RawRun } from '../../src/domain/sandbox.js';
import type { ExpectedTest } from '../../src/domain/queue.js';
import { interpretRun } from '../../src/stages/run/test-run.js';
import { foldAttempt, newAttemptState, settle, stoppedAtLimit } from '../../src/stages/run/attempts.js';
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

describe('a test stopped at its own limit (issue 33)', () => {
  const start = (index: number) => f('start', { file: 'a.test.js', index, timeoutMs: 400, budgetMs: 400 });
  const output = (index: number, stream: string, text: string, truncated = false) =>
    f('output', { file: 'a.test.js', index, stream, text, truncated });

  it('keeps each test’s output between its start and its result, and nothing printed outside a test', () => {
    const i = interpretRun(
      run([
        collected,
        output(0, 'stdout', 'before any start\n'),
        start(0),
        output(0, 'stdout', 'a\n'),
        output(0, 'stderr', 'b\n'),
        output(0, 'stdout', 'c\n'),
        result(0, 'passed'),
        output(0, 'stdout', 'after its result\n'),
        start(1),
        output(1, 'stdout', 'x'.repeat(5000), true),
        result(1, 'failed', 'nope'),
        f('done', { files: 1 }),
      ]),
      expected,
    );
    expect([...i.results.entries()]).toEqual([
      [
        'a.test.js#0',
        { status: 'passed', durationMs: 3, message: '', output: { stdout: 'a\nc\n', stderr: 'b\n', truncated: false } },
      ],
      [
        'a.test.js#1',
        {
          status: 'failed',
          durationMs: 3,
          message: 'nope',
          output: { stdout: 'x'.repeat(4096), stderr: '', truncated: true },
        },
      ],
    ]);
  });

  it('charges the stopped test a timeout at its own limit with its partial output, resumes the rest, then settles them', () => {
    const state = newAttemptState();
    const r1 = run([collected, start(0), result(0, 'passed'), start(1), output(1, 'stdout', 'loop\n')], {
      testTimeout: { file: 'a.test.js', index: 1, limitMs: 400 },
      exitCode: null,
      signal: 'SIGKILL',
    });
    const i1 = interpretRun(r1, expected);
    expect(i1.events).toEqual([
      {
        event: 'timeout',
        detail:
          'a test ran past its own time limit (400 ms, its own time) without giving control back; the grader stopped the whole process tree',
      },
    ]);
    expect(foldAttempt(state, i1, r1, expected, limits)).toEqual([expected[2]]);
    expect(state.results.get('a.test.js#1')).toEqual({
      status: 'timeout',
      durationMs: 400,
      message: stoppedAtLimit(400),
      output: { stdout: 'loop\n', stderr: '', truncated: false },
    });
    // The rubric's budget for stopped tests spent: what never ran says why.
    state.budgetSpent = 400;
    expect(settle(state, expected).map((o) => [o.status, o.message])).toEqual([
      ['passed', ''],
      ['timeout', stoppedAtLimit(400)],
      [
        'error',
        "not run: the tests stopped at their own time limit used up the submission's 400 ms budget for them (limits.total_timeout_ms)",
      ],
    ]);
  });

  it('a job killed at its own limit while a test ran still says the job’s limit', () => {
    const state = newAttemptState();
    const r = run([collected, start(0)], { timedOut: true, exitCode: null, signal: 'SIGKILL', wallMs: 1000 });
    foldAttempt(state, interpretRun(r, expected), r, expected, limits);
    expect(state.results.get('a.test.js#0')?.message).toBe(
      'killed: the job exceeded its 1000 ms time limit while this test ran',
    );
  });
});
