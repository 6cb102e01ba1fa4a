import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { EvigradeError } from '../domain/errors.js';
import type { Config } from '../domain/config.js';
import type { RedisTarget } from './redis-url.js';

/** Queue settings after validation, with a URL. */
export type QueueSettings = Config['queue'] & { readonly url: string };

/** Job names: a registry the worker dispatches on exhaustively. */
export const JOB = { grade: 'grade', collect: 'collect' } as const;
export type JobName = (typeof JOB)[keyof typeof JOB];

/** Rubrics travel once per content hash, beside the queue's own keys. */
export const rubricKey = (s: QueueSettings, sha: string): string => `${s.prefix}:${s.name}:rubric:${sha}`;

/**
 * One ioredis connection. `maxRetriesPerRequest: null` makes commands wait
 * through a reconnect (BullMQ requires it for workers); every error is
 * logged with the redacted URL only, and never crashes the process.
 */
export function connect(target: RedisTarget, role: string, log: Logger): Redis {
  const conn = new Redis(target.url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    connectionName: `evigrade-${role}`,
    retryStrategy: (times) => Math.min(200 * times, 2000),
  });
  let down = false;
  conn.on('error', (e: Error) => {
    if (!down) log.warn({ queue: target.redacted, role, err: e.message }, 'job queue connection lost; reconnecting');
    down = true;
  });
  conn.on('ready', () => {
    if (down) log.info({ queue: target.redacted, role }, 'job queue connection back');
    down = false;
  });
  return conn;
}

/** A failure of the job's own kind travels as JSON in the job's failure reason. */
export const FAILURE_PREFIX = 'evigrade:';

/** At start, a wrong URL should fail in a second: three failed connection attempts in a row, or no answer in `ms`. */
export async function reachable(conn: Redis, target: RedisTarget, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onError: ((e: Error) => void) | undefined;
  const failing = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    let errors = 0;
    onError = (e) => {
      if (++errors >= 3) reject(e);
    };
    conn.on('error', onError);
  });
  try {
    await Promise.race([conn.ping(), failing]);
  } catch (e) {
    conn.disconnect();
    throw new EvigradeError(
      'QUEUE_UNAVAILABLE',
      `cannot reach the job queue at ${target.redacted}: ${(e as Error).message}`,
    );
  } finally {
    clearTimeout(timer);
    if (onError) conn.off('error', onError);
  }
}
