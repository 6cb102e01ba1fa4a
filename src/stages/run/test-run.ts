import { ATTEMPT_FLAGS, type AttemptFlag, type Flag, type SandboxEvent, type TestStatus } from '../../domain/report.js';
import type { Frame, RawRun } from '../../domain/sandbox.js';
import { parseFrame, type HarnessFrame } from '../../domain/frames.js';
import type { ExpectedTest } from '../../domain/queue.js';
import { recordOutput, type TestOutput } from './test-output.js';

export type { TestOutput };

export interface Observed {
  readonly status: TestStatus;
  readonly durationMs: number;
  readonly message: string;
  readonly output?: TestOutput;
}

export interface Interpretation {
  /** Keyed by `${file}#${index}`; a missing key means the test did not report. */
  readonly results: ReadonlyMap<string, Observed>;
  readonly events: readonly Omit<SandboxEvent, 'id'>[];
  readonly flags: readonly Omit<Flag, 'evidence'>[];
  /** True when the job finished its run (authenticated `done` frame). */
  readonly complete: boolean;
  /** Tests started but never finished: the job died while they ran. */
  readonly inFlight: readonly string[];
  /** What each test printed while it ran, finished or not (keyed as `results`). */
  readonly outputs: ReadonlyMap<string, TestOutput>;
  readonly untrusted: string | null;
  /** Why the submission did not load, once (the job's own file names already mapped back to the submission's). */
  readonly loadError: LoadError | null;
}

export type LoadError = FrameOf<'loadError'>;

export const keyOf = (t: { file: string; index: number }): string => `${t.file}#${t.index}`;

export type FrameOf<T extends HarnessFrame['type']> = Extract<HarnessFrame, { type: T }>['data'];

const MESSAGE_CAP = 4000;
const cap = (s: string): string => (s.length > MESSAGE_CAP ? `${s.slice(0, MESSAGE_CAP)}… [truncated]` : s);
const samePath = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

// Text a test reporter would print: if it appears on stdout it was printed by
// the submission, which is harmless but worth an instructor's glance.
const FAKE_REPORT = /^(?:not ok|ok) \d+\b|^\s*(?:✓|✔|√)\s|^PASS\s|^# (?:pass|fail) \d+|"type":"(?:result|done)"/m;

/**
 * Turns one sandbox run into per-test observations, events and flags. Pure. `sourceOf` names a job file as the
 * submission has it (a TypeScript file runs type-stripped under another name).
 */
export function interpretRun(
  run: RawRun,
  expected: readonly ExpectedTest[],
  sourceOf: (jobPath: string) => string = (p) => p,
): Interpretation {
  const results = new Map<string, Observed>();
  const events: Omit<SandboxEvent, 'id'>[] = [];
  const flags: Omit<Flag, 'evidence'>[] = [];
  const started = new Set<string>();
  const outputs = new Map<string, TestOutput>();
  const byFile = groupByFile(expected);
  let untrusted: string | null = null;
  let complete = false;
  let loadError: LoadError | null = null;

  for (const raw of run.frames) {
    const f = parseFrame(raw);
    if ('malformed' in f) {
      events.push({ event: 'crash', detail: cap(`the harness sent ${f.malformed}; it was ignored`) });
      continue;
    }
    switch (f.type) {
      case 'collected':
        untrusted = checkCollected(f.data, byFile, results, flags, loadError) ?? untrusted;
        break;
      case 'loadError':
        if (loadError) break;
        loadError = { ...f.data, file: f.data.file === null ? null : sourceOf(f.data.file) };
        events.push({ event: 'load_error', detail: cap(describeLoadError(loadError)) });
        flags.push({ code: 'submission.load_error', severity: 'warning', message: cap(describeLoadError(loadError)) });
        break;
      case 'start':
        started.add(keyOf(f.data));
        break;
      case 'result':
        recordResult(f.data, byFile, results);
        break;
      case 'output':
        recordOutput(f.data, started, results, outputs);
        break;
      case 'tamper':
        untrusted = noteTamper(f.data, events, flags) ?? untrusted;
        break;
      case 'limit':
        events.push({ event: 'output_limit', detail: f.data.detail });
        break;
      case 'note':
        noteNote(f.data, events, flags);
        break;
      case 'fileError':
        events.push({ event: 'crash', detail: cap(`${f.data.file}: ${f.data.message}`) });
        break;
      case 'fatal':
        events.push({ event: 'crash', detail: cap(`harness error: ${f.data.message}`) });
        break;
      case 'done':
        complete = true;
        break;
      case 'coverage':
        break; // a rubric audit's reference run: read by audit/coverage.ts, no verdict depends on it

      default:
        return f satisfies never;
    }
  }
  noteOutcome(run, complete, events, flags);
  const inFlight = [...started].filter((k) => !results.has(k));
  for (const [k, out] of outputs) {
    const r = results.get(k);
    if (r) results.set(k, { ...r, output: out });
  }
  return { results, events, flags, complete, inFlight, untrusted, loadError, outputs };
}

/** Where the submission's own file failed and why, in one line: `leap.py, line 2: SyntaxError: expected ':'`. */
export function describeLoadError(e: LoadError): string {
  const where = e.file === null ? 'the submission' : e.line === null ? e.file : `${e.file}, line ${e.line}`;
  return `${where}: ${e.message}`;
}

/** What every test that could not run says: a short reference to the one load error. */
const notLoaded = (e: LoadError): string =>
  `not run: the submission did not load (${e.file === null ? 'see its load error' : e.line === null ? e.file : `${e.file}, line ${e.line}`})`;

function groupByFile(expected: readonly ExpectedTest[]): Map<string, ExpectedTest[]> {
  const m = new Map<string, ExpectedTest[]>();
  for (const t of expected) m.set(t.file, [...(m.get(t.file) ?? []), t]);
  return m;
}

/** The job's registrations must equal the hidden tests exactly; else nothing from that file counts. */
function checkCollected(
  d: FrameOf<'collected'>,
  byFile: Map<string, ExpectedTest[]>,
  results: Map<string, Observed>,
  flags: Omit<Flag, 'evidence'>[],
  loadError: LoadError | null,
): string | null {
  const want = byFile.get(d.file) ?? [];
  if (d.error) {
    // A test file the submission kept from loading says so in one line; the reason is the load error, told once.
    const message = loadError ? notLoaded(loadError) : cap(d.error);
    for (const t of want) results.set(keyOf(t), { status: 'error', durationMs: 0, message });
    return null;
  }
  const got = d.tests;
  const same =
    got.length === want.length &&
    want.every((t, i) => got[i]?.index === t.index && samePath(got[i]?.path ?? [], t.path));
  if (same) return null;
  const message = `untrusted: the tests registered in the job (${got.length}) differ from the hidden tests (${want.length})`;
  for (const t of want) results.set(keyOf(t), { status: 'error', durationMs: 0, message });
  flags.push({ code: 'tampering.registration', severity: 'critical', message });
  return message;
}

function recordResult(d: FrameOf<'result'>, byFile: Map<string, ExpectedTest[]>, results: Map<string, Observed>): void {
  const want = byFile.get(d.file) ?? [];
  const t = want.find((x) => x.index === d.index);
  // A result for a test we did not expect, or with another path, is ignored:
  // the registration check has already flagged it.
  if (!t || !samePath(t.path, d.path) || results.has(keyOf(t))) return;
  results.set(keyOf(t), { status: d.status, durationMs: Math.max(0, d.durationMs), message: cap(d.message) });
}

/**
 * Python harness notes that become a warning flag (once per code; docs/python-harness.md): the
 * submission's answer was not taken, and a reader should see why. None makes the job untrusted.
 */
const PYTHON_NOTE_FLAGS = new Set([
  // an object of the submission compared with plain expected data; its own __eq__ was never asked
  'equality.submission_defined',
  // it asked the test process for an attribute of a handed-over object the policy does not serve (handover.py)
  'sandbox.refused_request',
  // a star import of its module did not bind names that would shadow the test module's own, builtins or pytest's
  'sandbox.shadowing',
]);

/**
 * What a submission attempted at run time (issue 30): a file outside its folder, the environment, a process, a signal,
 * the network — seen by the JavaScript realm's facades or Python's audit hooks. Both harnesses send it alike, a note
 * whose code is the flag, `sandbox.attempt.<kind>`, and whose detail is what was tried; here it becomes a sandbox event
 * (`S…`, `<flag>: <what>`, so the flag cites it) each, and one warning flag per kind. The sandbox refused or contained
 * each; the flag tells the instructor it was tried. Points are not taken for it (as `policy.*`): a rubric's tests
 * decide what the code earns. None makes the job untrusted.
 */
const ATTEMPT_MESSAGES: Record<AttemptFlag, string> = {
  'sandbox.attempt.read_outside': 'to use a file outside its folder',
  'sandbox.attempt.env': 'to read an environment variable',
  'sandbox.attempt.spawn': 'to start a process',
  'sandbox.attempt.signal': 'to send a signal',
  'sandbox.attempt.network': 'to use the network',
  'sandbox.attempt.native': 'to run native code',
};
/** What the sandbox did about it: the environment it saw is the sandbox's own; native code is past every hook. */
const ATTEMPT_OUTCOMES: Partial<Record<AttemptFlag, string>> = {
  'sandbox.attempt.env': "it saw only the sandbox's own environment",
  'sandbox.attempt.native':
    'what native code then does is not seen by the hooks (the sandbox still bounds it: no network, no host files)',
};
function noteAttempt(
  code: AttemptFlag,
  detail: string,
  events: Omit<SandboxEvent, 'id'>[],
  flags: Omit<Flag, 'evidence'>[],
): void {
  const what = cap(detail);
  events.push({ event: 'attempt', detail: `${code}: ${what}` });
  if (!flags.some((f) => f.code === code))
    flags.push({
      code,
      severity: 'warning',
      message: `the submission tried ${ATTEMPT_MESSAGES[code]} at run time (${what}); ${ATTEMPT_OUTCOMES[code] ?? 'the sandbox refused it'}`,
    });
}
const isAttempt = (code: string): code is AttemptFlag => (ATTEMPT_FLAGS as readonly string[]).includes(code);

/** Notes from the harness: what the submission did that a reader of the report should see. */
function noteNote(d: FrameOf<'note'>, events: Omit<SandboxEvent, 'id'>[], flags: Omit<Flag, 'evidence'>[]): void {
  if (d.code === 'blocked_module') events.push({ event: 'blocked_module', detail: `blocked module: ${d.detail}` });
  else if (isAttempt(d.code)) noteAttempt(d.code, d.detail, events, flags);
  else if (d.code === 'memory_limit') events.push({ event: 'memory_limit', detail: d.detail });
  else if (PYTHON_NOTE_FLAGS.has(d.code) && !flags.some((f) => f.code === d.code))
    flags.push({ code: d.code, severity: 'warning', message: d.detail });
}

function noteTamper(
  d: FrameOf<'tamper'>,
  events: Omit<SandboxEvent, 'id'>[],
  flags: Omit<Flag, 'evidence'>[],
): string | null {
  const { code, detail } = d;
  if (code === 'process_exit_called') {
    events.push({ event: 'process_exit', detail });
    if (!flags.some((f) => f.code === 'sandbox.process_exit')) {
      flags.push({
        code: 'sandbox.process_exit',
        severity: 'warning',
        message: `${detail}; the call threw instead of exiting, so the code that made it failed (at import: every test)`,
      });
    }
    return null;
  }
  events.push({ event: 'tampering', detail: `${code}: ${detail}` });
  if (!flags.some((f) => f.code === code)) flags.push({ code, severity: 'critical', message: detail });
  return `${code}: ${detail}`;
}

function noteOutcome(
  run: RawRun,
  complete: boolean,
  events: Omit<SandboxEvent, 'id'>[],
  flags: Omit<Flag, 'evidence'>[],
): void {
  // V8's own heap limit ends the process with SIGABRT or, depending on where it fails, SIGSEGV; its
  // message is the tell. (Printing it only relabels the job's own failure, so it need not be trusted further.)
  const heapOom =
    !complete && run.exitCode !== 0 && /FATAL ERROR: .*(heap out of memory|Reached heap limit)/.test(run.stderr);
  if (run.testTimeout)
    events.push({
      event: 'timeout',
      detail: `a test ran past its own time limit (${run.testTimeout.limitMs} ms, its own time) without giving control back; the grader stopped the whole process tree`,
    });
  if (run.timedOut)
    events.push({
      event: 'timeout',
      detail:
        "time limit reached (the job's own time, not time spent waiting for a CPU); the whole process tree was killed",
    });
  if (run.memoryLimitHit || heapOom)
    events.push({ event: 'memory_limit', detail: 'memory limit reached; the job was killed' });
  if (run.outputLimitHit) events.push({ event: 'output_limit', detail: 'output limit reached; the job was killed' });
  if (run.pidsLimitHit)
    events.push({ event: 'pids_limit', detail: 'the process limit was reached; further forks were refused' });
  if (!complete && !run.timedOut && !run.testTimeout && !run.outputLimitHit && !run.memoryLimitHit && !heapOom) {
    events.push({
      event: 'incomplete',
      detail: `the job ended before reporting every test (exit code ${run.exitCode ?? 'none'}, signal ${run.signal ?? 'none'})`,
    });
    if (run.exitCode === 0)
      flags.push({
        code: 'sandbox.early_exit',
        severity: 'warning',
        message: 'the job exited with code 0 before the harness finished; missing tests count as failed',
      });
  }
  if (run.rejectedFrames > 0) {
    const message = `${run.rejectedFrames} unauthenticated line(s) were written to the results channel and ignored`;
    events.push({ event: 'tampering', detail: `tampering.forged_frames: ${message}` });
    flags.push({ code: 'tampering.forged_frames', severity: 'critical', message });
  }
  if (FAKE_REPORT.test(run.stdout)) {
    flags.push({
      code: 'tampering.fake_report',
      severity: 'warning',
      message: 'the submission printed text that looks like test-reporter output; it was ignored',
    });
  }
}

export type { Frame };
