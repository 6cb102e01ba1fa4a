import type { Redis } from 'ioredis';
import type { Pace } from '../util/limiter.js';

// One "next start" per deployment, advanced atomically on Redis's own clock (submitters' clocks may differ).
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local nxt = tonumber(redis.call('GET', KEYS[1]) or '0')
local start = math.max(now, nxt)
redis.call('SET', KEYS[1], start + tonumber(ARGV[1]), 'PX', start + tonumber(ARGV[1]) - now + 60000)
return start - now`;

/**
 * Judge calls spaced evenly across every submitter on the queue. If Redis
 * does not answer within a second the caller spaces calls locally instead:
 * a queue outage must not also stop judging what is already graded.
 */
export function sharedPace(conn: Redis, key: string): Pace {
  return async (intervalMs) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), 1000);
    });
    try {
      const wait = conn.eval(SCRIPT, 1, key, Math.round(intervalMs)).then(
        (v) => Number(v),
        () => null,
      );
      return await Promise.race([wait, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}
