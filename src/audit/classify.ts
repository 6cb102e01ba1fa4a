// Pure: what one run of the hidden tests says about a mutant, what the reference runs say about flakiness, and the
// budgets a mutant run gets from the reference's own time.
import type { AttemptState } from '../stages/run/attempts.js';
import { keyOf } from '../stages/run/test-run.js';
import type { ExpectedTest } from '../domain/queue.js';
import { testName } from '../stages/score/report.js';
import type { Limits } from '../domain/rubric.js';
import type { MutantStatus } from '../domain/audit.js';

export interface Verdict {
  readonly status: Exclude<MutantStatus, 'ignored'>;
  readonly killedBy: string[];
  readonly detail?: string;
}

/**
 * killed: a test failed (or errored: a mutant that throws at import fails every test that imports it, as a student's
 * would); timeout: nothing failed but a test ran out of time; error: the job itself failed (tampering, no result
 * at all); survived: every test that ran passed. Tests an early stop left unrun are not results.
 */
export function verdictOf(state: AttemptState, expected: readonly ExpectedTest[]): Verdict {
  if (state.untrusted) return { status: 'error', killedBy: [], detail: state.untrusted };
  const ran = expected.flatMap((t) => {
    const r = state.results.get(keyOf(t));
    return r ? [{ name: testName(t), ...r }] : [];
  });
  const failed = ran.filter((r) => r.status === 'failed' || r.status === 'error');
  if (failed.length > 0) {
    return { status: 'killed', killedBy: failed.map((r) => r.name), detail: firstLine(failed[0]?.message) };
  }
  const timedOut = ran.filter((r) => r.status === 'timeout');
  if (timedOut.length > 0)
    return { status: 'timeout', killedBy: timedOut.map((r) => r.name), detail: firstLine(timedOut[0]?.message) };
  if (ran.length === 0) return { status: 'error', killedBy: [], detail: 'no test reported' };
  return { status: 'survived', killedBy: [] };
}

const firstLine = (s: string | undefined): string => (s ?? '').split('\n')[0]?.slice(0, 300) ?? '';

/** Per test, its status in each reference run; a test whose statuses differ is flaky. */
export function flakyTests(
  runs: readonly AttemptState[],
  expected: readonly ExpectedTest[],
): { test: string; outcomes: string[] }[] {
  const out: { test: string; outcomes: string[] }[] = [];
  for (const t of expected) {
    const outcomes = runs.map((r) => r.results.get(keyOf(t))?.status ?? 'no result');
    if (new Set(outcomes).size > 1) out.push({ test: testName(t), outcomes });
  }
  return out;
}

/** Tests of the reference that did not pass in a run (the audit needs a reference that passes). */
export const referenceFailures = (run: AttemptState, expected: readonly ExpectedTest[]): string[] =>
  expected
    .filter((t) => {
      const s = run.results.get(keyOf(t))?.status;
      return s !== 'passed' && s !== 'skipped';
    })
    .map(testName);

/**
 * A mutant's budgets, from the reference's quickest run (job wall time, which is never below its own time) and its
 * slowest test: a mutant that loops forever is stopped in a few times the reference's time, never more than the
 * rubric allows.
 */
export function mutantLimits(limits: Limits, refWallMs: number, refSlowestTestMs: number): Limits {
  return {
    ...limits,
    timeout_ms: Math.min(limits.timeout_ms, Math.max(2_000, Math.ceil(3 * refWallMs))),
    test_timeout_ms: Math.min(limits.test_timeout_ms, Math.max(1_000, Math.ceil(10 * refSlowestTestMs + 500))),
  };
}

export const slowestTest = (runs: readonly AttemptState[]): number =>
  Math.max(0, ...runs.flatMap((r) => [...r.results.values()].map((o) => o.durationMs)));
