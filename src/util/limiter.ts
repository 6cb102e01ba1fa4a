/**
 * At most `concurrency` calls in flight and at most `perMinute` starts per
 * rolling minute (spaced evenly), for the judge servers' sake. With `pace`
 * the spacing is shared (several submitters on one job queue): it returns
 * how long this start must wait; null falls back to spacing here.
 */
export interface Limiter {
  run<T>(fn: () => Promise<T>): Promise<T>;
}

export type Pace = (intervalMs: number) => Promise<number | null>;

export function createLimiter(
  concurrency: number,
  perMinute: number,
  sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
  pace?: Pace,
): Limiter {
  let active = 0;
  const waiting: (() => void)[] = [];
  const interval = perMinute > 0 ? 60_000 / perMinute : 0;
  let nextStart = 0;
  const acquire = async (): Promise<void> => {
    if (active >= concurrency) await new Promise<void>((r) => waiting.push(r));
    active++;
    const shared = pace && interval > 0 ? await pace(interval) : null;
    if (shared !== null) {
      if (shared > 0) await sleep(shared);
      return;
    }
    const now = Date.now();
    const start = Math.max(now, nextStart);
    nextStart = start + interval;
    if (start > now) await sleep(start - now);
  };
  const release = (): void => {
    active--;
    waiting.shift()?.();
  };
  return {
    async run(fn) {
      await acquire();
      try {
        return await fn();
      } finally {
        release();
      }
    },
  };
}
