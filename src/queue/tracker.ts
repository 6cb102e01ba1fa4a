import type { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { EvigradeError } from '../domain/errors.js';
import type { QueueSettings } from './bull.js';
import { decodeFailure } from './outcome.js';
import type { RedisTarget } from './redis-url.js';

interface Pending {
  /** Settles the wait (and drops its abort listener). */
  resolve(value: unknown): void;
  reject(e: Error): void;
  /** Adds the job again (the queue lost it: Redis came back without its data). */
  readonly add: () => Promise<unknown>;
  lost: number;
  readonly onProgress?: ((data: unknown) => void) | undefined;
}

export interface Tracker {
  /** Adds a job (through `add`) and resolves with its return value, or rejects with its failure. */
  wait(
    jobId: string,
    add: () => Promise<unknown>,
    signal?: AbortSignal,
    onProgress?: (data: unknown) => void,
  ): Promise<unknown>;
  close(): void;
}

/**
 * Follows the jobs this submitter is waiting for. Completion events are the
 * fast path; a sweep of job states every few seconds, and whenever the
 * connection comes back, catches anything the event stream missed. A
 * connection down longer than `unavailable_ms`, or no worker at all for that
 * long, fails the waits with QUEUE_UNAVAILABLE instead of hanging.
 */
export function createTracker(
  queue: Queue,
  events: QueueEvents,
  conn: Redis,
  s: QueueSettings,
  target: RedisTarget,
  log: Logger,
): Tracker {
  const pending = new Map<string, Pending[]>();
  let downSince: number | null = null;
  let workerlessSince: number | null = null;
  const settle = (jobId: string, how: (p: Pending) => void): void => {
    const list = pending.get(jobId);
    pending.delete(jobId);
    for (const p of list ?? []) how(p);
  };
  const failAll = (e: EvigradeError): void => {
    for (const id of [...pending.keys()]) settle(id, (p) => p.reject(e));
  };
  events.on('completed', ({ jobId, returnvalue }) => settle(jobId, (p) => p.resolve(returnvalue)));
  events.on('failed', ({ jobId, failedReason }) =>
    settle(jobId, (p) => p.reject(decodeFailure(failedReason, s.max_stalled))),
  );
  events.on('progress', ({ jobId, data }) => {
    for (const p of pending.get(jobId) ?? []) p.onProgress?.(data);
  });

  async function check(jobId: string): Promise<void> {
    const state = await queue.getJobState(jobId);
    if (state === 'completed' || state === 'failed') {
      const job = await queue.getJob(jobId);
      if (!job) return; // removed between the two reads: the next sweep sees 'unknown'
      if (state === 'completed') settle(jobId, (p) => p.resolve(job.returnvalue));
      else settle(jobId, (p) => p.reject(decodeFailure(job.failedReason ?? '', s.max_stalled)));
    } else if (state === 'unknown') {
      for (const p of pending.get(jobId) ?? []) {
        if (++p.lost > 3)
          settle(jobId, (q) =>
            q.reject(
              new EvigradeError('QUEUE_UNAVAILABLE', `the job queue at ${target.redacted} keeps losing job ${jobId}`),
            ),
          );
        else {
          log.warn({ jobId }, 'the job queue lost a job (Redis restarted without its data?); adding it again');
          await p.add();
        }
        break;
      }
    }
  }
  const sweep = async (): Promise<void> => {
    for (const id of [...pending.keys()]) await check(id).catch(() => undefined);
  };
  async function tick(): Promise<void> {
    if (pending.size === 0) return void (workerlessSince = null);
    const now = Date.now();
    if (downSince !== null) {
      if (now - downSince > s.unavailable_ms)
        failAll(
          new EvigradeError(
            'QUEUE_UNAVAILABLE',
            `the job queue at ${target.redacted} has been unreachable for ${Math.round((now - downSince) / 1000)} s`,
          ),
        );
      return;
    }
    const workers = await queue.getWorkersCount().catch(() => -1); // -1: CLIENT LIST not allowed here; cannot tell
    workerlessSince = workers === 0 ? (workerlessSince ?? now) : null;
    if (workerlessSince !== null && now - workerlessSince > s.unavailable_ms) {
      failAll(
        new EvigradeError(
          'QUEUE_UNAVAILABLE',
          `no evigrade worker has served queue "${s.name}" at ${target.redacted} for ${Math.round((now - workerlessSince) / 1000)} s (start one with: evigrade worker --queue <url>)`,
        ),
      );
      return;
    }
    await sweep();
  }
  conn.on('close', () => (downSince ??= Date.now()));
  conn.on('ready', () => {
    downSince = null;
    void sweep();
  });
  let ticking = false;
  const timer = setInterval(
    () => {
      if (ticking) return;
      ticking = true;
      void tick()
        .catch(() => undefined)
        .finally(() => (ticking = false));
    },
    Math.min(5000, Math.max(250, s.unavailable_ms / 4)),
  );
  timer.unref();

  return {
    wait(jobId, add, signal, onProgress) {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(new EvigradeError('SHUTTING_DOWN', 'interrupted'));
        const onAbort = (): void =>
          settle(jobId, (q) =>
            q.reject(
              new EvigradeError('SHUTTING_DOWN', 'interrupted; the job stays queued and a re-run collects its result'),
            ),
          );
        const done = (): void => signal?.removeEventListener('abort', onAbort);
        const p: Pending = {
          resolve: (v) => {
            done();
            resolve(v);
          },
          reject: (e) => {
            done();
            reject(e);
          },
          add,
          lost: 0,
          onProgress,
        };
        pending.set(jobId, [...(pending.get(jobId) ?? []), p]);
        signal?.addEventListener('abort', onAbort, { once: true });
        // A job that already finished (a restarted submitter's) sends no event: look once after adding.
        add()
          .then(
            () => check(jobId),
            (e: unknown) => settle(jobId, (q) => q.reject(e as Error)),
          )
          .catch(() => undefined);
      });
    },
    close() {
      clearInterval(timer);
      failAll(new EvigradeError('SHUTTING_DOWN', 'the job queue connection is closing'));
    },
  };
}
