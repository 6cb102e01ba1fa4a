import { hostname } from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { buildRubric, formatZodIssues } from '../adapters/fs/rubric-loader.js';
import { asEvigradeError, EvigradeError, isSubmissionError } from '../domain/errors.js';
import { CollectJobSchema, GradeJobSchema, RubricWireSchema } from '../domain/queue.js';
import type { DeterministicReport } from '../domain/report.js';
import type { Rubric } from '../domain/rubric.js';
import { emptySubmission, type Submission } from '../domain/submission.js';
import { collectExpected, failedDeterministic, gradeDeterministic, type GradePorts } from '../engine.js';
import { intakeMap } from '../stages/intake/intake.js';
import type { ExpectedTest } from '../domain/queue.js';
import { connect, JOB, reachable, rubricKey, type JobName, type QueueSettings } from './bull.js';
import { encodeFailure } from './outcome.js';
import { redisTarget } from './redis-url.js';
import type { z } from 'zod';

/** Codes no retry can fix: the job itself is wrong, not the machine. */
const FINAL = new Set(['JOB_INVALID', 'RUBRIC_INVALID', 'RUBRIC_TESTS_INVALID']);

const invalid = (what: string, issues: readonly z.core.$ZodIssue[]): EvigradeError =>
  new EvigradeError('JOB_INVALID', formatZodIssues(what, issues.slice(0, 5)));

/** Rubrics by content hash, fetched once, rebuilt through the rubric loader's own validation, hash checked. */
function rubricCache(conn: Redis, s: QueueSettings): (sha: string) => Promise<Rubric> {
  const cache = new Map<string, Promise<Rubric>>();
  const load = async (sha: string): Promise<Rubric> => {
    const text = await conn.get(rubricKey(s, sha));
    if (text === null)
      throw new EvigradeError(
        'JOB_INVALID',
        `rubric ${sha.slice(0, 12)} is not in the queue (expired, or another prefix)`,
      );
    if (Buffer.byteLength(text) > s.max_job_kb * 1024)
      throw new EvigradeError('JOB_INVALID', `rubric ${sha.slice(0, 12)} is larger than queue.max_job_kb`);
    const wire = RubricWireSchema.safeParse(JSON.parse(text));
    if (!wire.success) throw invalid(`rubric ${sha.slice(0, 12)}`, wire.error.issues);
    const rubric = buildRubric(wire.data.spec, `queue rubric ${sha.slice(0, 12)}`, wire.data.tests, {
      path: `redis:rubric:${sha}`,
      referenceDir: null,
    });
    if (rubric.sha256 !== sha)
      throw new EvigradeError(
        'JOB_INVALID',
        `rubric ${sha.slice(0, 12)}: its content hashes to ${rubric.sha256.slice(0, 12)}`,
      );
    return rubric;
  };
  return (sha) => {
    let p = cache.get(sha);
    if (!p) {
      if (cache.size >= 64) cache.delete(cache.keys().next().value as string);
      p = load(sha);
      p.catch(() => cache.delete(sha));
      cache.set(sha, p);
    }
    return p;
  };
}

/** The submission as the submitter took it in: the same intake rules again (entry file included), the same content hash, its ignored entries kept. */
function submissionOf(d: z.infer<typeof GradeJobSchema>['submission'], rubric: Rubric): Submission {
  const sub = intakeMap(d.id, d.files, rubric, d);
  if (sub.sha256 !== d.sha256)
    throw new EvigradeError(
      'JOB_INVALID',
      `submission "${d.id}": its files hash to ${sub.sha256.slice(0, 12)}, the job says ${d.sha256.slice(0, 12)}`,
    );
  return sub;
}

type Handler = (job: Job, ports: GradePorts, rubricOf: (sha: string) => Promise<Rubric>) => Promise<unknown>;

const workerName = `${hostname()}:${process.pid}`;

const HANDLERS: Record<JobName, Handler> = {
  async [JOB.collect](job, ports, rubricOf): Promise<ExpectedTest[]> {
    const d = CollectJobSchema.safeParse(job.data);
    if (!d.success) throw invalid(`job ${job.id}`, d.error.issues);
    return collectExpected(await rubricOf(d.data.rubric), ports.sandbox);
  },
  async [JOB.grade](job, ports, rubricOf): Promise<DeterministicReport> {
    const d = GradeJobSchema.safeParse(job.data);
    if (!d.success) throw invalid(`job ${job.id}`, d.error.issues);
    const rubric = await rubricOf(d.data.rubric);
    let sub: Submission;
    try {
      sub = submissionOf(d.data.submission, rubric);
    } catch (e) {
      const err = asEvigradeError(e);
      if (!isSubmissionError(err.code)) throw err;
      return failedDeterministic(
        emptySubmission(d.data.submission.id, d.data.submission.name),
        rubric,
        d.data.expected,
        err,
        { ...ports, backend: ports.sandbox.backend.id },
      );
    }
    // Progress through the queue: the submitter's bar and SSE say where each submission runs.
    await job.updateProgress({ worker: workerName, backend: ports.sandbox.backend.id }).catch(() => undefined);
    return gradeDeterministic(sub, rubric, d.data.expected, ports);
  },
};

/** Resolves once the connection has not been ready for `ms` on end (polled). */
function unreachableFor(conn: Redis, ms: number): { promise: Promise<void>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => {
    let since: number | null = null;
    timer = setInterval(() => {
      since = conn.status === 'ready' ? null : (since ?? Date.now());
      if (since !== null && Date.now() - since >= ms) resolve();
    }, 250);
  });
  return { promise, cancel: () => clearInterval(timer) };
}

export interface WorkerHandle {
  readonly name: string;
  /** Stops taking jobs and resolves when the running ones have finished (SIGTERM). */
  drain(): Promise<void>;
  /** Stops at once; running jobs go back to the queue when their locks expire. */
  abort(): Promise<void>;
}

/**
 * `evigrade worker`: takes jobs from the queue and grades them in this
 * machine's sandbox. Nothing from Redis reaches a job: the job's files are
 * the submission's, its environment is the sandbox's (no URL, no secret),
 * and the sandbox has no network, so the control plane stays out of reach.
 */
export async function startWorker(
  s: QueueSettings,
  concurrency: number,
  ports: GradePorts,
  log: Logger,
): Promise<WorkerHandle> {
  const target = redisTarget(s.url, 'worker --queue');
  const conn = connect(target, 'worker', log);
  // A wrong URL or password fails the start; an outage later is waited out (ioredis reconnects).
  await reachable(conn, target, Math.min(s.unavailable_ms, 10_000));
  const name = workerName;
  const rubricOf = rubricCache(conn, s);
  const processor = async (job: Job): Promise<unknown> => {
    const t0 = performance.now();
    const handler = Object.hasOwn(HANDLERS, job.name) ? HANDLERS[job.name as JobName] : undefined;
    const sub = (job.data as { submission?: { id?: unknown } } | null)?.submission?.id;
    log.info(
      {
        job: job.id,
        kind: job.name,
        submission: typeof sub === 'string' ? sub : undefined,
        attempt: job.attemptsMade + 1,
      },
      'job started',
    );
    try {
      if (!handler) throw new EvigradeError('JOB_INVALID', `job ${job.id}: unknown job name "${job.name}"`);
      if (Buffer.byteLength(JSON.stringify(job.data)) > s.max_job_kb * 1024)
        throw new EvigradeError('JOB_INVALID', `job ${job.id} is larger than queue.max_job_kb`);
      const out = await handler(job, ports, rubricOf);
      log.info(
        { job: job.id, kind: job.name, attempt: job.attemptsMade + 1, ms: Math.round(performance.now() - t0) },
        'job done',
      );
      return out;
    } catch (e) {
      const err = asEvigradeError(e);
      log.warn({ job: job.id, kind: job.name, code: err.code, attempt: job.attemptsMade + 1 }, 'job failed');
      const reason = encodeFailure({ code: err.code, message: err.message, backend: ports.sandbox.backend.id });
      throw FINAL.has(err.code) ? new UnrecoverableError(reason) : new Error(reason);
    }
  };
  const worker = new Worker(s.name, processor, {
    connection: conn,
    prefix: s.prefix,
    concurrency,
    name,
    lockDuration: s.lock_ms,
    stalledInterval: s.stalled_interval_ms,
    maxStalledCount: s.max_stalled,
  });
  // Connection trouble is logged once per outage by connect(); BullMQ's own errors (a lost lock...) once a minute each.
  const seen = new Map<string, number>();
  worker.on('error', (e: Error) => {
    if (/ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Connection is closed|WRONGPASS|NOAUTH/.test(e.message)) return;
    if (Date.now() - (seen.get(e.message) ?? 0) < 60_000) return;
    if (seen.size > 1000) seen.clear();
    seen.set(e.message, Date.now());
    log.warn({ err: e.message }, 'queue error');
  });
  await worker.waitUntilReady();
  log.info(
    {
      queue: target.redacted,
      name: s.name,
      prefix: s.prefix,
      worker: name,
      concurrency,
      backend: ports.sandbox.backend.id,
    },
    'worker ready',
  );
  const stop = async (force: boolean): Promise<void> => {
    const gone = unreachableFor(conn, force ? 0 : 5000);
    // With Redis gone, close() would wait forever for a connection to say goodbye on; the jobs are the queue's to recover.
    await Promise.race([worker.close(force), gone.promise]);
    gone.cancel();
    conn.disconnect();
  };
  return { name, drain: () => stop(false), abort: () => stop(true) };
}
