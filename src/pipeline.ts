// The one grading path every caller takes (CLI batch, HTTP batch, POST /grade): the intake result → the
// deterministic part through the queue (engine.ts, wherever the queue runs it) → the judge → the Report built
// once → kept by the caller → recorded in the history.
import { randomUUID } from 'node:crypto';
import type { JudgePort } from './judges/port.js';
import type { HistoryStore } from './domain/history.js';
import type { ItemOverride, OverrideSource } from './domain/items.js';
import type { LmsIdentity } from './domain/lms.js';
import type { GradeJob, GradeQueue } from './queue/port.js';
import { withLms } from './stages/lms/submissions.js';
import { finalize, skippedJudgement } from './stages/judge/judgement.js';
import { applyOverrides } from './stages/judge/overrides.js';
import { asEvigradeError, EvigradeError } from './domain/errors.js';
import type { DeterministicReport, Report } from './domain/report.js';
import type { Rubric } from './domain/rubric.js';
import type { Submission } from './domain/submission.js';
import type { ExpectedTest } from './domain/queue.js';
import { failedDeterministic, ms } from './engine.js';

/** The judge stage on a deterministic report: asked, audited, blended, timed, and the Report built. */
export async function judgeReport(
  det: DeterministicReport,
  sub: Submission,
  rubric: Rubric,
  ports: Pick<GradingPorts, 'judge' | 'overrides'>,
): Promise<Report> {
  const t0 = performance.now();
  const j = ports.judge ? await ports.judge.judge(det, sub, rubric) : skippedJudgement('no judge configured');
  // An instructor's decisions on rubric items win over the judge, in every regrade.
  const overrides = rubric.spec.items.length
    ? ((await ports.overrides?.forSubmission(rubric.spec.id, sub.id)) ?? [])
    : [];
  return finalize(
    { ...det, timings: { ...det.timings, judgeMs: ms(t0), totalMs: (det.timings.totalMs ?? 0) + ms(t0) } },
    j,
    rubric,
    overrides,
  );
}

/** The Report of a submission that could not be graded; no judge is asked. */
export function failedReport(...args: Parameters<typeof failedDeterministic>): Report {
  const det = failedDeterministic(...args);
  return finalize(det, skippedJudgement(`the submission was not graded (${det.status})`), args[1]);
}

/** Where one grading's parts run: the deterministic part on the queue, then the judge here, then the history. */
export interface GradingPorts {
  readonly queue: Pick<GradeQueue, 'grade' | 'label'>;
  /** The LLM judge stage; null grades deterministically (the report says the judge was skipped). */
  readonly judge: JudgePort | null;
  /** Where every grading is also recorded, if anywhere. */
  readonly history?: Pick<HistoryStore, 'record'> | null;
  /** The instructor's decisions on rubric items (a batch folder's overrides.jsonl, the history), if any. */
  readonly overrides?: OverrideSource | null;
  readonly now: () => Date;
  readonly tools: Record<string, string>;
}

/** What intake made of a submission: the files to grade, or why it was rejected (with what is known of it). */
export type Intake = { readonly submission: Submission; readonly rejected?: EvigradeError };

/** The measured half of a grading: a deterministic report the judge has yet to see, or a finished report (rejected, or failed). */
export type Measured = { readonly det: DeterministicReport; readonly sub: Submission } | { readonly report: Report };

/** Not the submission's fault and not final: the caller keeps it unfinished and tries again (or stops). */
const RETRY_LATER = new Set(['QUEUE_UNAVAILABLE', 'SHUTTING_DOWN']);
/** Also the store being unreachable, for callers that keep results there: nothing to report, only to retry. */
export const retryLater = (err: EvigradeError): boolean =>
  RETRY_LATER.has(err.code) || err.code === 'STORE_UNAVAILABLE';

/**
 * Intake result → the deterministic part through the queue. A machine failure is the submission's error
 * report in a batch; an interactive caller (POST /grade) gets it thrown, to answer with its status.
 */
export async function measure(
  intake: Intake,
  rubric: Rubric,
  expected: readonly ExpectedTest[],
  job: Pick<GradeJob, 'scope' | 'interactive' | 'onStart'>,
  ports: GradingPorts,
  signal?: AbortSignal,
): Promise<Measured> {
  const fail = (err: EvigradeError): Measured => ({
    report: failedReport(intake.submission, rubric, expected, err, { ...ports, backend: ports.queue.label }),
  });
  if (intake.rejected) return fail(intake.rejected);
  try {
    return {
      det: await ports.queue.grade({ ...job, rubric, expected, submission: intake.submission }, signal),
      sub: intake.submission,
    };
  } catch (e) {
    const err = asEvigradeError(e);
    if (job.interactive || RETRY_LATER.has(err.code)) throw err;
    return fail(err);
  }
}

export interface Keeping {
  /** Who asked, for the history: `cli`, or `api:<key id>`. */
  readonly requestedBy: string;
  readonly lms?: LmsIdentity | undefined;
  /** Writes the report where the caller keeps it (a file, the batch store) before the history records it. */
  readonly keep?: (report: Report) => Promise<void>;
}

/** The judge on what was measured, the Report built once, kept by the caller, then recorded in the history. */
export async function conclude(m: Measured, rubric: Rubric, ports: GradingPorts, keeping: Keeping): Promise<Report> {
  const report = withLms('det' in m ? await judgeReport(m.det, m.sub, rubric, ports) : m.report, keeping.lms);
  await keeping.keep?.(report);
  await ports.history?.record(report, keeping.requestedBy);
  return report;
}

/** One submission from intake to history: the path every caller (CLI batch, HTTP batch, POST /grade) takes. */
export async function gradeSubmission(
  intake: Intake,
  rubric: Rubric,
  expected: readonly ExpectedTest[],
  ports: GradingPorts,
  job: Pick<GradeJob, 'scope' | 'interactive' | 'onStart'> = { scope: randomUUID(), interactive: true },
  keeping: Keeping = { requestedBy: 'cli' },
  signal?: AbortSignal,
): Promise<Report> {
  return conclude(await measure(intake, rubric, expected, job, ports, signal), rubric, ports, keeping);
}

/**
 * An instructor's decision on a rubric item, taken after grading: the submission's latest grading again with
 * it, recorded as a new grading by `override:<who>` (every later regrade reads it back through `overrides`).
 */
export async function overrideLatest(
  history: Pick<HistoryStore, 'latest' | 'record'>,
  rubricId: string,
  submissionId: string,
  decision: ItemOverride,
): Promise<{ grading: Awaited<ReturnType<HistoryStore['record']>>; report: Report }> {
  const last = await history.latest(rubricId, submissionId);
  if (!last) throw new EvigradeError('NOT_FOUND', `no grading of ${submissionId} under rubric ${rubricId}`);
  const items = last.scores.items?.results ?? [];
  if (!items.some((i) => i.id === decision.item))
    throw new EvigradeError(
      'NOT_FOUND',
      `the latest grading of ${submissionId} has no rubric item "${decision.item}" (its items: ${items.map((i) => i.id).join(', ') || 'none'})`,
    );
  const report = applyOverrides(last, [decision]);
  return { grading: await history.record(report, `override:${decision.by}`), report };
}
