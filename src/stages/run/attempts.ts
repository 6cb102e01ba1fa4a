import type { Limits } from '../../domain/rubric.js';
import type { Flag, SandboxEvent } from '../../domain/report.js';
import type { RawRun } from '../../domain/sandbox.js';
import type { ExpectedTest } from '../../domain/queue.js';
import { keyOf, type Interpretation, type Observed } from './test-run.js';

/** What is known about a submission's tests across one or more sandbox runs. */
export interface AttemptState {
  readonly results: Map<string, Observed>;
  readonly events: Omit<SandboxEvent, 'id'>[];
  readonly flags: Omit<Flag, 'evidence'>[];
  untrusted: string | null;
  runs: number;
  /** Σ of the own limits of the tests the grader stopped from outside (each counted at its limit). */
  stoppedMs: number;
  /** Set when that sum reached the submission's budget (`limits.total_timeout_ms`): the rest were not resumed. */
  budgetSpent: number | null;
}

export const newAttemptState = (): AttemptState => ({
  results: new Map(),
  events: [],
  flags: [],
  untrusted: null,
  runs: 0,
  stoppedMs: 0,
  budgetSpent: null,
});

/** The words for a test the grader stopped from outside at its own limit (it never gave control back). */
export const stoppedAtLimit = (limitMs: number): string =>
  `Exceeded timeout of ${limitMs} ms for a test: it never gave control back (a loop that does not end?), so the grader stopped it from outside; the tests after it ran in a fresh job.`;

function killedMessage(run: RawRun, limits: Limits, key: string): Observed {
  const own = run.testTimeout;
  if (own && keyOf(own) === key)
    return { status: 'timeout', durationMs: own.limitMs, message: stoppedAtLimit(own.limitMs) };
  if (run.timedOut) {
    return {
      status: 'timeout',
      durationMs: run.wallMs,
      message: `killed: the job exceeded its ${limits.timeout_ms} ms time limit while this test ran`,
    };
  }
  const reason =
    run.memoryLimitHit || /FATAL ERROR: .*(heap out of memory|Reached heap limit)/.test(run.stderr)
      ? `the memory limit (${limits.memory_mb} MB) was exceeded`
      : run.outputLimitHit
        ? `the output limit (${limits.output_kb} KB) was exceeded`
        : `the process ended (exit code ${run.exitCode ?? 'none'}, signal ${run.signal ?? 'none'})`;
  return { status: 'error', durationMs: run.wallMs, message: `killed: ${reason} while this test ran` };
}

/**
 * Folds one run into the state and says what to run next: the tests still
 * without a result, or null when done. A test that took the job down is
 * charged to that test alone; the rest get another run, as a fair grader would.
 */
export function foldAttempt(
  state: AttemptState,
  interp: Interpretation,
  run: RawRun,
  expected: readonly ExpectedTest[],
  limits: Limits,
): ExpectedTest[] | null {
  state.runs++;
  const before = state.results.size;
  for (const [k, v] of interp.results) if (!state.results.has(k)) state.results.set(k, v);
  for (const k of interp.inFlight) {
    if (state.results.has(k)) continue;
    const output = interp.outputs.get(k);
    state.results.set(k, { ...killedMessage(run, limits, k), ...(output ? { output } : {}) });
  }
  state.events.push(...interp.events);
  for (const f of interp.flags) if (!state.flags.some((x) => x.code === f.code)) state.flags.push(f);
  if (interp.untrusted) state.untrusted = interp.untrusted;
  if (interp.complete || state.untrusted) return null;
  const remaining = expected.filter((t) => !state.results.has(keyOf(t)));
  const progressed = state.results.size > before;
  return remaining.length > 0 && progressed ? remaining : null;
}

/** Final status per expected test, in order; untrusted jobs keep no verdict. */
export function settle(state: AttemptState, expected: readonly ExpectedTest[]): Observed[] {
  return expected.map((t) => {
    const r = state.results.get(keyOf(t)) ?? {
      status: 'error' as const,
      durationMs: 0,
      message:
        state.budgetSpent === null
          ? 'no result: the job ended before this test reported'
          : `not run: the tests stopped at their own time limit used up the submission's ${state.budgetSpent} ms budget for them (limits.total_timeout_ms)`,
    };
    // In a tampered job no verdict is evidence, pass or fail alike.
    if (state.untrusted && r.status !== 'skipped') {
      const was = r.message
        ? `\n(reported before discarding: ${r.status}: ${r.message.split('\n')[0]})`
        : `\n(reported before discarding: ${r.status})`;
      return { status: 'error' as const, durationMs: r.durationMs, message: `untrusted: ${state.untrusted}${was}` };
    }
    return r;
  });
}

export function onlyMap(tests: readonly ExpectedTest[]): Record<string, number[]> {
  const m: Record<string, number[]> = {};
  for (const t of tests) (m[t.file] ??= []).push(t.index);
  return m;
}
