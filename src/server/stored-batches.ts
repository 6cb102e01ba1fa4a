// HTTP batches in the store (`serve --db`): any number of replicas share them. Each replica claims unfinished
// submissions under a lease it renews while grading; a replica that dies stops renewing, and when its leases run
// out another replica claims them and re-adds the same content-addressed jobs (collected, not graded twice).
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { reportFileText } from '../adapters/fs/atomic.js';
import type { BatchStatus } from '../domain/api.js';
import type { BatchStore, Claim, StoreEvent } from '../domain/batches.js';
import { EvigradeError } from '../domain/errors.js';
import { ReportSchema, type Report } from '../domain/report.js';
import { emptySubmission } from '../domain/submission.js';
import type { BatchPorts } from '../batch.js';
import { asEvigradeError } from '../domain/errors.js';
import { failedReport, retryLater } from '../pipeline.js';
import { summarise } from '../stages/score/summary.js';
import { gradeStored, storedInput, type BatchEvent, type BatchLog, type BatchService } from './batches.js';
import type { RubricStore } from './rubric-store.js';
import type { Slots } from './slots.js';

const ID = /^[0-9a-f]{16}$/;

export interface StoredBatchService extends BatchService {
  /** Stops claiming, gives back the leases still held (another replica takes them at once), stops listening. */
  close(): Promise<void>;
}

const keyOf = (c: Pick<Claim, 'batchId' | 'submissionId'>): string => `${c.batchId}/${c.submissionId}`;

export async function createStoredBatchService(
  store: BatchStore,
  rubrics: RubricStore,
  slots: Slots,
  ports: BatchPorts,
  log: BatchLog,
  leaseMs: number,
): Promise<StoredBatchService> {
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  const held = new Map<string, Claim>();
  let closing = false;
  const unlisten = await store.listen(
    (e: StoreEvent) => {
      if (e.type === 'created') return void pump();
      const { batch, type, ...rest } = e;
      bus.emit(batch, { type, ...rest } satisfies BatchEvent);
    },
    () => void announceEnded(),
  );
  /**
   * After the listening connection came back, the notifications sent meanwhile are lost: every batch someone
   * follows here that ended meanwhile is announced from its status, so no event stream waits for a past end.
   */
  async function announceEnded(): Promise<void> {
    for (const id of bus.eventNames().map(String)) {
      const s = await status(id).catch(() => null);
      if (s?.state === 'done') bus.emit(id, { type: 'done', done: s.done, total: s.total } satisfies BatchEvent);
    }
  }
  // Batch work waits behind interactive requests in this replica's slots.
  const queue = {
    label: ports.queue.label,
    grade: (j: Parameters<BatchPorts['queue']['grade']>[0]) => slots.runLater(() => ports.queue.grade(j)),
  };

  /** A failure that would recur on every replica becomes the submission's error report, so its batch finishes. */
  async function keepFailure(c: Claim, err: EvigradeError): Promise<void> {
    const { rubric, expected } = rubrics.get(c.rubricId);
    const report = failedReport(emptySubmission(c.submissionId), rubric, expected, err, {
      ...ports,
      backend: ports.queue.label,
    });
    await store.complete(c.batchId, c.submissionId, report, reportFileText(report), `api:${c.requestedBy}`);
  }

  async function gradeClaim(c: Claim): Promise<void> {
    const requestedBy = `api:${c.requestedBy}`;
    let first = true;
    // The result and its history row commit together in the store (so no separate history record here).
    const keep = async (r: Report): Promise<void> =>
      void (first = await store.complete(c.batchId, c.submissionId, r, reportFileText(r), requestedBy));
    const onStart = (where: string): void =>
      void store
        .started(c.batchId, c.submissionId, where)
        .catch((e: unknown) =>
          log.warn(
            { batch: c.batchId, submission: c.submissionId, err: asEvigradeError(e).message },
            'progress not sent',
          ),
        );
    try {
      await gradeStored(
        c.batchId,
        c.submissionId,
        c.input,
        rubrics.get(c.rubricId),
        { ...ports, queue, history: null },
        { requestedBy, lms: c.input.lms, keep },
        onStart,
      );
      if (!first)
        log.info(
          { batch: c.batchId, submission: c.submissionId },
          'another replica kept this result first; ours is dropped',
        );
    } catch (e) {
      const err = asEvigradeError(e);
      // Not final: the lease runs out and a replica (this one, or another) grades the submission again.
      if (retryLater(err))
        log.warn(
          { batch: c.batchId, submission: c.submissionId, code: err.code, err: err.message },
          'submission left unfinished; it is graded again when its lease runs out',
        );
      else {
        log.error(
          { batch: c.batchId, submission: c.submissionId, code: err.code, err: err.message },
          'submission failed',
        );
        await keepFailure(c, err).catch((e2: unknown) =>
          log.error(
            { batch: c.batchId, submission: c.submissionId, err: asEvigradeError(e2).message },
            'the failure could not be kept either',
          ),
        );
      }
    } finally {
      held.delete(keyOf(c));
      void pump();
    }
  }

  let pumping: Promise<void> | null = null;
  let again = false;
  /** Claims as much unfinished work (of any replica's batches) as this replica takes at once, and grades it. */
  function pump(): void {
    if (pumping) return void (again = true);
    pumping = (async () => {
      do {
        again = false;
        if (closing) return;
        const room = ports.queue.capacity - held.size;
        const claims = await store.claim(owner, room, leaseMs);
        if (claims.length > 0) log.info({ claimed: claims.map(keyOf) }, 'claimed batch work');
        for (const c of claims) {
          held.set(keyOf(c), c);
          void gradeClaim(c);
        }
        if (room > 0 && claims.length === room) again = true;
      } while (again);
    })()
      .catch((e: unknown) =>
        log.error({ err: asEvigradeError(e).message }, 'cannot claim batch work; trying again at the next lease tick'),
      )
      .finally(() => (pumping = null));
  }

  // Leases are renewed three times per lease; the same tick finds work whose lease ran out (a replica died).
  const tick = setInterval(
    () => {
      void store
        .renew(owner, [...held.values()], leaseMs)
        .catch((e: unknown) => log.warn({ err: asEvigradeError(e).message }, 'cannot renew batch leases'))
        .then(pump);
    },
    Math.max(100, Math.floor(leaseMs / 3)),
  );
  tick.unref();

  async function loaded(id: string) {
    if (!ID.test(id)) throw new EvigradeError('NOT_FOUND', `no batch "${id}"`);
    const got = await store.get(id);
    if (!got || got.batch.origin !== 'api') throw new EvigradeError('NOT_FOUND', `no batch "${id}"`);
    return got;
  }

  async function status(id: string): Promise<BatchStatus> {
    const { batch, results } = await loaded(id);
    const done = results.filter((r) => r.status !== null).length;
    return {
      id,
      rubric: batch.rubricId,
      createdAt: batch.createdAt,
      total: batch.total,
      done,
      state: done === batch.total ? 'done' : 'running',
      submissions: results.map((r) => ({
        id: r.submissionId,
        ...(r.name ? { name: r.name } : {}),
        status: r.status,
        final: r.final,
      })),
    };
  }

  return {
    async create(req, requestedBy) {
      const { rubric } = rubrics.get(req.rubric); // unknown rubric: 404 before anything is stored
      const id = randomBytes(8).toString('hex');
      const inputs = req.submissions.map((s) => ({ id: s.id, input: storedInput(s) }));
      await store.create(
        {
          id,
          origin: 'api',
          rubricId: req.rubric,
          rubricSha: rubric.sha256,
          requestedBy,
          createdAt: ports.now().toISOString(),
          total: inputs.length,
          label: ports.queue.label,
          summarisedAt: null,
        },
        inputs,
      );
      pump();
      return status(id);
    },
    status,
    async report(id, sub) {
      const { results } = await loaded(id);
      if (!results.some((r) => r.submissionId === sub))
        throw new EvigradeError('NOT_FOUND', `batch ${id} has no submission "${sub}"`);
      const text = await store.report(id, sub);
      if (text === null) throw new EvigradeError('NOT_FOUND', `the report for "${sub}" is not ready yet`);
      return ReportSchema.parse(JSON.parse(text));
    },
    async summary(id) {
      const { batch } = await loaded(id);
      const reports = (await store.reports(id)).map((t) => ReportSchema.parse(JSON.parse(t)));
      return summarise(reports, { id: batch.rubricId, sha256: batch.rubricSha }, batch.label, ports.now());
    },
    subscribe(id, listener) {
      if (!ID.test(id)) throw new EvigradeError('NOT_FOUND', `no batch "${id}"`);
      bus.on(id, listener);
      return () => bus.off(id, listener);
    },
    async resumeAll() {
      const open = await store.unfinished();
      pump();
      return open;
    },
    async close() {
      closing = true;
      clearInterval(tick);
      await pumping;
      await store
        .release(owner)
        .catch((e: unknown) =>
          log.warn({ err: asEvigradeError(e).message }, 'cannot give back batch leases; they run out instead'),
        );
      await unlisten();
    },
  };
}
