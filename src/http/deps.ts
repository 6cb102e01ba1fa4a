// What the HTTP service is built from: its own file, so the routes need not import the app that registers them.
import type { Logger } from 'pino';
import type { HistoryStore } from '../domain/history.js';
import type { BatchPorts } from '../batch.js';
import type { BatchService } from '../server/batches.js';
import type { RubricStore } from '../server/rubric-store.js';
import type { Slots } from '../server/slots.js';
import type { AuditService } from '../server/audits.js';

export interface AppDeps {
  readonly rubrics: RubricStore;
  readonly slots: Slots;
  readonly batches: BatchService;
  readonly ports: BatchPorts;
  readonly apiKeys: readonly string[];
  readonly ratePerMinute: number;
  readonly judgeInfo: () => Record<string, unknown>;
  /** The grading history, when the server records one (--db); the same store is in `ports.history`. */
  readonly history?: HistoryStore | null;
  /** Rubric audits (POST /rubrics/{id}/audit); absent: the server does not run them (never without a sandbox). */
  readonly audits?: AuditService | null;
  readonly logger?: Logger | false;
  /** Bytes: one submission's body, and a batch's. */
  readonly bodyLimit?: number;
  readonly batchBodyLimit?: number;
}
