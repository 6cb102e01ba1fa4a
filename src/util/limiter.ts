/**
 * At most `concurrency` calls in flight and at most `perMinute` starts per
 * rolling minute (spaced evenly), for the judge servers' sake.
 */
export interface Limiter {
  run<T>(fn: () => Promise<T>): Promise<T>;
}

export function createLimiter(concurrency: number, perMinute: number, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))): Limiter {
  let active = 0;
  const waiting: (() => void)[] = [];
  const interval = perMinute > 0 ? 60_000 / perMinute : 0;
  let nextStart = 0;
  const acquire = async (): Promise<void> => {
    if (active >= concurrency) await new Promise<void>((r) => waiting.push(r));
    active++;
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
