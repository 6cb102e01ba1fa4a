import type { Report } from './report.js';

// The grading-history port: what the CLI, the HTTP service and `evigrade history` ask of the store
// (adapters/store/history.ts implements it over Postgres and PGlite).

export interface Grading {
  readonly id: number;
  readonly rubricId: string;
  readonly submissionId: string;
  readonly status: string;
  readonly final: number;
  readonly flags: readonly string[];
  readonly evidenceHash: string;
  readonly reportSha: string;
  readonly judgeModel: string | null;
  readonly requestedBy: string;
  readonly gradedAt: string;
  readonly rowHash: string;
}

export interface HistoryFilter {
  readonly rubricId?: string;
  readonly submissionId?: string;
  /** Only gradings carrying this flag code. */
  readonly flag?: string;
  /** Only gradings carrying any flag (the ones an instructor should look at). */
  readonly flagged?: boolean;
}

export interface ChainProblem {
  readonly id: number;
  readonly rubricId: string;
  readonly submissionId: string;
  readonly problem: string;
}

export interface HistoryStore {
  readonly label: string;
  /** Appends one grading; `requestedBy` is who asked (`cli`, an API key's id). */
  record(report: Report, requestedBy: string): Promise<Grading>;
  list(filter?: HistoryFilter): Promise<Grading[]>;
  /** Every row whose stored report or place in its chain does not match its hashes. */
  verify(filter?: HistoryFilter): Promise<ChainProblem[]>;
  /** The stored report of one grading (for diffs). */
  report(id: number): Promise<Report | null>;
  /** The report of a submission's latest grading under a rubric, or null. */
  latest(rubricId: string, submissionId: string): Promise<Report | null>;
  close(): Promise<void>;
}
