// Rubric audits run by the service (POST /rubrics/{id}/audit): one job per request, its progress as events (the
// batches' way: a subscriber sees every event after it subscribed, GET /audits/{id} the state at any time) and its
// audit.json once done. Kept in memory: an audit is a measurement of the rubric, repeated at will, not a grade.
import { randomUUID } from 'node:crypto';
import { EvigradeError } from '../domain/errors.js';
import type { AuditReport } from '../domain/audit.js';
import type { Rubric } from '../domain/rubric.js';
import type { AuditOutcome, AuditProgress } from '../audit/run.js';
import type { RubricStore } from './rubric-store.js';

export interface AuditStatus {
  readonly id: string;
  readonly rubric: string;
  readonly state: 'running' | 'done' | 'failed';
  readonly progress: { readonly phase: AuditProgress['phase']; readonly done: number; readonly total: number };
  readonly createdAt: string;
  /** Once done: the mutation score and counts (the whole audit.json at GET /audits/{id}/result). */
  readonly score?: number | null;
  readonly counts?: AuditReport['counts'];
  readonly error?: { readonly code: string; readonly message: string };
}

export type AuditEvent =
  | ({ readonly type: 'progress' } & AuditStatus['progress'] & { readonly mutant?: AuditProgress['mutant'] })
  | { readonly type: 'done'; readonly score: number | null; readonly counts: AuditReport['counts'] }
  | { readonly type: 'failed'; readonly code: string; readonly message: string };

export interface AuditService {
  /** Starts an audit of the rubric, or returns the one already running for it. */
  create(rubricId: string): AuditStatus;
  status(id: string): AuditStatus;
  /** audit.json of a finished audit; the audit's own error if it failed; null while it runs. */
  result(id: string): AuditReport | null;
  subscribe(id: string, fn: (e: AuditEvent) => void): () => void;
}

/** Runs one audit in a sandbox of its own (never unsandboxed: the runner refuses the unsafe backend). */
export type AuditRunner = (rubric: Rubric, onProgress: (p: AuditProgress) => void) => Promise<AuditOutcome>;

interface Job {
  status: AuditStatus;
  report: AuditReport | null;
  error: EvigradeError | null;
  readonly listeners: Set<(e: AuditEvent) => void>;
}

const ID = /^a-[0-9a-f-]{36}$/;

export function createAuditService(deps: {
  readonly rubrics: RubricStore;
  readonly run: AuditRunner;
  readonly now: () => Date;
}): AuditService {
  const jobs = new Map<string, Job>();
  const job = (id: string): Job => {
    const j = ID.test(id) ? jobs.get(id) : undefined;
    if (!j) throw new EvigradeError('NOT_FOUND', `no audit "${id.slice(0, 80)}"`);
    return j;
  };
  const emit = (j: Job, e: AuditEvent): void => {
    for (const fn of [...j.listeners]) fn(e);
  };

  async function start(j: Job, rubric: Rubric): Promise<void> {
    try {
      const outcome = await deps.run(rubric, (p) => {
        j.status = { ...j.status, progress: { phase: p.phase, done: p.done, total: p.total } };
        emit(j, { type: 'progress', ...j.status.progress, ...(p.mutant ? { mutant: p.mutant } : {}) });
      });
      j.report = outcome.report;
      j.status = { ...j.status, state: 'done', score: outcome.report.score, counts: outcome.report.counts };
      emit(j, { type: 'done', score: outcome.report.score, counts: outcome.report.counts });
    } catch (e) {
      const err =
        e instanceof EvigradeError ? e : new EvigradeError('INTERNAL', `the audit failed: ${(e as Error).message}`);
      j.error = err;
      j.status = { ...j.status, state: 'failed', error: { code: err.code, message: err.message } };
      emit(j, { type: 'failed', code: err.code, message: err.message });
    }
  }

  return {
    create(rubricId) {
      const { rubric } = deps.rubrics.get(rubricId);
      const running = [...jobs.values()].find((j) => j.status.rubric === rubricId && j.status.state === 'running');
      if (running) return running.status;
      const id = `a-${randomUUID()}`;
      const j: Job = {
        status: {
          id,
          rubric: rubricId,
          state: 'running',
          progress: { phase: 'collect', done: 0, total: 1 },
          createdAt: deps.now().toISOString(),
        },
        report: null,
        error: null,
        listeners: new Set(),
      };
      jobs.set(id, j);
      void start(j, rubric);
      return j.status;
    },
    status: (id) => job(id).status,
    result(id) {
      const j = job(id);
      if (j.error) throw j.error;
      return j.report;
    },
    subscribe(id, fn) {
      const j = job(id);
      j.listeners.add(fn);
      return () => j.listeners.delete(fn);
    },
  };
}
