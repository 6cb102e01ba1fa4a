import { Queue, QueueEvents, type JobsOptions } from 'bullmq';
import type { Logger } from 'pino';
import { EvigradeError } from '../domain/errors.js';
import { GradeJobSchema, type GradeJobData, type RubricWire } from '../domain/queue.js';
import { DeterministicReportSchema, type DeterministicReport } from '../domain/report.js';
import type { Rubric } from '../domain/rubric.js';
import { ExpectedTestSchema } from '../domain/queue.js';
import { fileMapOf } from '../stages/intake/intake.js';
import { canonicalJson, sha256 } from '../util/hash.js';
import { connect, JOB, reachable, rubricKey, type QueueSettings } from './bull.js';
import type { GradeJob, GradeQueue } from './port.js';
import { redisTarget } from './redis-url.js';
import { sharedPace } from './pace.js';
import { createTracker } from './tracker.js';

/** Batch work is prioritised below interactive requests and rubric collection (BullMQ serves un-prioritised jobs first). */
const BATCH_PRIORITY = 10;
const INTERACTIVE_KEEP_S = 300;
const RUBRIC_REFRESH_MS = 3_600_000;

export const rubricWire = (r: Rubric): RubricWire => ({
  v: 1,
  sha256: r.sha256,
  spec: r.spec,
  tests: r.tests.map((t) => ({ name: t.name, source: t.source })),
});

/** The job for one submission, checked against the schema workers use, and its size against the limit. */
export function gradeJobData(job: GradeJob, maxBytes: number): GradeJobData {
  const sub = job.submission;
  const data = GradeJobSchema.parse({
    v: 1,
    rubric: job.rubric.sha256,
    expected: job.expected,
    submission: {
      id: sub.id,
      ...(sub.name !== undefined && { name: sub.name }),
      sha256: sub.sha256,
      files: fileMapOf(sub),
      ignored: [...sub.ignored],
    },
  });
  const bytes = Buffer.byteLength(JSON.stringify(data));
  if (bytes > maxBytes)
    throw new EvigradeError(
      'JOB_INVALID',
      `submission "${sub.id}": the job is ${Math.ceil(bytes / 1024)} KB, over queue.max_job_kb (${maxBytes / 1024})`,
    );
  return data;
}

/** Stable within a scope: the same submission asked again is the same job. */
const jobIdOf = (kind: string, parts: unknown[]): string => `${kind}-${sha256(canonicalJson(parts)).slice(0, 40)}`;

/**
 * The submitting side of the BullMQ adapter: rubrics are stored once by
 * content hash, each submission becomes one job, and results come back
 * through the queue to be judged and persisted here, once.
 */
export async function openRedisQueue(s: QueueSettings, log: Logger): Promise<GradeQueue> {
  const target = redisTarget(s.url, 'queue');
  const conn = connect(target, 'submit', log);
  await reachable(conn, target, Math.min(s.unavailable_ms, 10_000));
  const queue = new Queue(s.name, { connection: conn, prefix: s.prefix });
  const events = new QueueEvents(s.name, { connection: conn, prefix: s.prefix });
  queue.on('error', () => undefined); // logged once per outage by connect()
  events.on('error', () => undefined);
  await events.waitUntilReady();
  const tracker = createTracker(queue, events, conn, s, target, log);
  const stored = new Map<string, number>();

  /** Stored with a TTL a day past the jobs' own, and refreshed hourly, so a server running for weeks never loses one. */
  async function storeRubric(r: Rubric): Promise<void> {
    if (Date.now() - (stored.get(r.sha256) ?? -Infinity) < RUBRIC_REFRESH_MS) return;
    await conn.set(rubricKey(s, r.sha256), JSON.stringify(rubricWire(r)), 'EX', s.keep_s + 86_400);
    stored.set(r.sha256, Date.now());
  }

  /** `keep`: seconds a finished job stays so a restarted submitter can collect it (none waits for an HTTP client that left). */
  async function submit(
    name: string,
    jobId: string,
    data: unknown,
    rubric: Rubric,
    opts: JobsOptions & { keep: number },
    signal?: AbortSignal,
    onProgress?: (d: unknown) => void,
  ): Promise<unknown> {
    const prior = await queue.getJob(jobId);
    const state = prior ? await prior.getState() : null;
    // A failed job asked for again is a retry; a finished or running one is collected, not graded twice.
    if (state === 'failed') await prior?.remove().catch(() => undefined);
    // Running already (another replica's, now taken over): its progress event went by before we listened.
    if (state === 'active' && prior?.progress) onProgress?.(prior.progress);
    const { keep, ...rest } = opts;
    let adds = 0;
    const add = async (): Promise<unknown> => {
      // Added again only when Redis lost the job (a restart without its data): then it lost the rubric too.
      if (adds++ > 0) stored.delete(rubric.sha256);
      await storeRubric(rubric);
      return queue.add(name, data, {
        ...rest,
        jobId,
        attempts: s.attempts,
        backoff: { type: 'fixed', delay: 1000 },
        removeOnComplete: { age: keep },
        removeOnFail: { age: keep },
      });
    };
    return tracker.wait(jobId, add, signal, onProgress);
  }

  return {
    kind: 'redis',
    capacity: s.in_flight,
    label: 'redis',
    pace: sharedPace(conn, `${s.prefix}:judge:next-start`),
    async collect(rubric) {
      const value = await submit(JOB.collect, jobIdOf('c', [rubric.sha256]), { v: 1, rubric: rubric.sha256 }, rubric, {
        keep: s.keep_s,
      }).catch((e: unknown) => {
        // The worker names the rubric by its queue key; the user knows it by its file.
        if (e instanceof EvigradeError)
          throw new EvigradeError(
            e.code,
            e.message.replaceAll(`redis:rubric:${rubric.sha256}`, rubric.path),
            e.details,
          );
        throw e;
      });
      const parsed = ExpectedTestSchema.array().safeParse(value);
      if (!parsed.success)
        throw new EvigradeError('JOB_INVALID', `the worker's test collection for ${rubric.path} does not validate`);
      return parsed.data;
    },
    async grade(job, signal): Promise<DeterministicReport> {
      const data = gradeJobData(job, s.max_job_kb * 1024);
      const id = jobIdOf('g', [job.scope, job.rubric.sha256, job.submission.id, job.submission.sha256]);
      const onProgress = (d: unknown): void => {
        const p = d as { worker?: unknown; backend?: unknown } | null;
        if (typeof p?.worker === 'string' && typeof p.backend === 'string') job.onStart?.(`${p.worker} (${p.backend})`);
      };
      const value = await submit(
        JOB.grade,
        id,
        data,
        job.rubric,
        job.interactive ? { keep: INTERACTIVE_KEEP_S } : { priority: BATCH_PRIORITY, keep: s.keep_s },
        signal,
        onProgress,
      );
      const parsed = DeterministicReportSchema.safeParse(value);
      if (!parsed.success)
        throw new EvigradeError(
          'JOB_INVALID',
          `submission "${job.submission.id}": the report a worker returned does not validate: ${parsed.error.issues[0]?.message ?? ''}`,
        );
      return parsed.data;
    },
    async health() {
      const workers = await queue.getWorkersCount().catch(() => null);
      const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed').catch(() => null);
      return {
        ready: conn.status === 'ready',
        kind: 'redis',
        url: target.redacted,
        queue: s.name,
        workers,
        jobs: counts,
      };
    },
    async close() {
      tracker.close();
      await events.close();
      await queue.close();
      conn.disconnect();
    },
  };
}
