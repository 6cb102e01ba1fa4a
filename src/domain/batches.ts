import type { ErrorCode } from './errors.js';
import type { LmsIdentity } from './lms.js';
import type { Report } from './report.js';

// The batch-store port: batches, their submissions, leases and results shared by every `serve` replica
// (adapters/store/batches.ts implements it over Postgres and PGlite; server/stored-batches.ts runs it).

/** A batch submission as stored: its files, or the intake error that rejects it (from an archive). */
export interface StoredInput {
  /** The submission's own name when it differs from the id (o'brien, José Núñez). */
  readonly name?: string | undefined;
  readonly files: Record<string, string>;
  /** Entries an archive held that intake kept out (node_modules...), listed in the report. */
  readonly ignored?: readonly string[] | undefined;
  readonly error: { code: ErrorCode; message: string } | null;
  readonly lms?: LmsIdentity | undefined;
}

export interface StoredBatch {
  readonly id: string;
  /** `api` (POST /batches) or `cli` (a `grade --db` run, recorded for export). */
  readonly origin: 'api' | 'cli';
  readonly rubricId: string;
  readonly rubricSha: string;
  readonly requestedBy: string;
  readonly createdAt: string;
  readonly total: number;
  /** The backend a summary names when no report does (the queue's label). */
  readonly label: string;
  /** The time a CLI batch's summary.json carries; null for a batch the service still owns. */
  readonly summarisedAt: string | null;
}

export interface StoredResult {
  readonly submissionId: string;
  /** The submission's own name when it differs from the id. */
  readonly name: string | null;
  readonly status: string | null;
  readonly final: number | null;
}

/** One submission this process holds the lease of, with what grading it needs. */
export interface Claim {
  readonly batchId: string;
  readonly submissionId: string;
  readonly rubricId: string;
  readonly requestedBy: string;
  readonly input: StoredInput;
}

/** A batch's progress, as SSE sends it. */
export interface BatchEvent {
  readonly type: 'started' | 'submission' | 'done';
  readonly submission?: string;
  /** `started`: where it runs (the backend, or `<host>:<pid> (backend)` for a queue worker). */
  readonly where?: string;
  readonly status?: string;
  readonly final?: number;
  readonly done: number;
  readonly total: number;
}

/** Progress as every replica hears it (Postgres NOTIFY; in-process on PGlite); `created`: a batch was stored (replicas look for work). */
export interface StoreEvent extends Omit<BatchEvent, 'type'> {
  readonly type: BatchEvent['type'] | 'created';
  readonly batch: string;
}

export interface BatchStore {
  readonly label: string;
  /** Stores a batch and its submissions in one transaction; every replica hears of it. */
  create(batch: StoredBatch, inputs: readonly { id: string; input: StoredInput | null }[]): Promise<void>;
  get(id: string): Promise<{ batch: StoredBatch; results: StoredResult[] } | null>;
  /** The report text exactly as kept, or null while it is not ready. */
  report(batch: string, submission: string): Promise<string | null>;
  /** Every finished report's text, in submission order. */
  reports(batch: string): Promise<string[]>;
  /** Takes up to `max` unfinished submissions nobody holds (or whose lease ran out), for `leaseMs`. */
  claim(owner: string, max: number, leaseMs: number): Promise<Claim[]>;
  /** Extends the leases `owner` still holds on these submissions. */
  renew(owner: string, held: readonly { batchId: string; submissionId: string }[], leaseMs: number): Promise<void>;
  /** Gives back every lease `owner` holds (a draining replica), so another takes them at once. */
  release(owner: string): Promise<void>;
  /**
   * The submission's result and its history row, in one transaction, if it has none yet (first wins);
   * false when another replica finished it first (nothing is written then).
   */
  complete(
    batch: string,
    submission: string,
    report: Report,
    reportText: string,
    requestedBy: string,
  ): Promise<boolean>;
  /** Tells every replica that a submission's sandbox run began, and where. */
  started(batch: string, submission: string, where: string): Promise<void>;
  /** How many submissions of every batch have no result yet. */
  unfinished(): Promise<number>;
  /** Every replica's progress events; resolves with the unsubscribe. `reconnected`: events may have been lost. */
  listen(fn: (e: StoreEvent) => void, reconnected?: () => void): Promise<() => Promise<void>>;
  /** A CLI batch's results, recorded after its files are written (for `history export`). */
  recordCli(batch: StoredBatch, reports: readonly { id: string; text: string }[]): Promise<void>;
  /** Batches, newest first (for `history --batches`). */
  list(): Promise<StoredBatch[]>;
}
