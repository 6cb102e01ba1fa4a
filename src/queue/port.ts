import type { DeterministicReport } from '../domain/report.js';
import type { Rubric } from '../domain/rubric.js';
import type { Submission } from '../domain/submission.js';
import type { ExpectedTest } from '../domain/queue.js';
import type { Pace } from '../util/limiter.js';

/** One submission to grade deterministically (sandboxed tests, lint, metrics); the judge comes after, on the submitting side. */
export interface GradeJob {
  /**
   * Who asked: a batch id, or a CLI output folder. Within one scope a
   * submission is one job, so a restarted submitter collects the result of
   * the job it had queued instead of grading the submission twice.
   */
  readonly scope: string;
  readonly rubric: Rubric;
  readonly expected: readonly ExpectedTest[];
  readonly submission: Submission;
  /** POST /grade: served ahead of batch work. */
  readonly interactive: boolean;
  /** Called when a sandbox starts on it, with where (`bwrap`, or `<host>:<pid> (docker)` for a worker): progress for bars and SSE. */
  readonly onStart?: (where: string) => void;
}

/**
 * Where grading runs. Every batch path (CLI `grade`, HTTP batches, POST
 * /grade) goes through this port: in-process (`local.ts`, the default) or on
 * `evigrade worker` processes behind BullMQ on Redis (`redis.ts`).
 */
export interface GradeQueue {
  readonly kind: 'local' | 'redis';
  /** How many jobs a submitter should keep outstanding at once. */
  readonly capacity: number;
  /** The backend named by reports and summaries that no sandbox produced. */
  readonly label: string;
  /** The tests a rubric registers, learned from the hidden tests alone. */
  collect(rubric: Rubric): Promise<ExpectedTest[]>;
  /** A batch of `jobs` submissions starts: what the queue prepares ahead (Docker's containers) stops there. */
  expect?(jobs: number): void;
  /** The deterministic report; throws (an EvigradeError) when grading failed for a machine reason. */
  grade(job: GradeJob, signal?: AbortSignal): Promise<DeterministicReport>;
  /** Spacing of judge calls shared by every submitter on this queue (`judge.rate_per_minute` becomes one deployment-wide budget). */
  readonly pace?: Pace;
  /** For /readyz: can jobs be graded now, and what grades them. */
  health(): Promise<{ ready: boolean } & Record<string, unknown>>;
  close(): Promise<void>;
}
