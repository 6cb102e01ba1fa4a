// Each test's own time limit, enforced from outside the job. The harness times its tests itself (Jest's timeout,
// the Python harness's budget), but a loop that never gives control back — `while (true) {}` in JavaScript, a C-level
// loop such as `sum(range(10**12))` in the Python test process — cannot be interrupted from inside its own process.
// The harness announces each test (`start`, with its limit) before running it and reports it (`result`) after; this
// watch counts, from the announcement, the CPU time of the job's busiest thread (job-clock.ts `count: 'cpu'`): what a
// loop that never gives control back burns, and a count no load, disk or slow reader of the job's pipes can add to
// (the job's own time would count a thread blocked on those). It kills the job once the test has burnt its limit and a
// grace in which the harness would have reported it itself. A test that waits without CPU is stopped by the harness's
// own timers (Jest's timeout, the Python harness's budget) or, if it blocks its whole process, by the job's limit. The runner records which test it was; stages/run/attempts.ts charges that test a timeout
// at its own limit and resumes the rest in a fresh job.
import type { Frame, TestTimeout } from '../../domain/sandbox.js';
import { startJobClock, type JobClock } from './job-clock.js';

/**
 * Own time the harness gets past a test's limit to report the timeout itself (a never-settling promise, a Python
 * submission's process it stops): its own count and ours are sampled apart, so ours waits a little longer.
 */
export const graceMs = (limitMs: number): number => Math.max(1000, Math.round(limitMs / 4));

/**
 * Wall time before a test's clock starts: most tests end sooner and cost no /proc read at all. The test's own time
 * in that delay is not counted (the clock counts from its first sample), so a kill comes at most this much late.
 */
const FIRST_SAMPLE_MS = 100;

export interface TestWatch {
  /** Feed every authenticated frame, in order, as it arrives. */
  readonly onFrame: (f: Frame) => void;
  /** The test this watch stopped, if any. */
  readonly expired: () => TestTimeout | null;
  stop(): void;
}

interface Announced {
  readonly file: string;
  readonly index: number;
  /** The test's own limit (for the message) and the most its hooks and body may take together (for the kill). */
  readonly timeoutMs?: number | undefined;
  readonly budgetMs?: number | undefined;
}

const announced = (f: Frame): Announced | null => {
  const d = f.data as Partial<Announced> | null;
  if (f.type !== 'start' || !d || typeof d.file !== 'string' || typeof d.index !== 'number') return null;
  return d as Announced;
};

/** Watches the tests of one job rooted at `root()`; `kill` ends the whole job. */
export function watchTests(root: () => number | null, kill: () => void): TestWatch {
  let clock: JobClock | null = null;
  let delay: NodeJS.Timeout | null = null;
  let expired: TestTimeout | null = null;
  let stopped = false;
  const clear = (): void => {
    if (delay) clearTimeout(delay);
    clock?.stop();
    delay = null;
    clock = null;
  };
  const watch = (t: Announced): void => {
    const limitMs = t.timeoutMs;
    // node:test has no default timeout: a test with none is bounded by the job's limit only.
    if (typeof limitMs !== 'number' || !(limitMs > 0)) return;
    const budget = Math.max(limitMs, typeof t.budgetMs === 'number' ? t.budgetMs : limitMs);
    delay = setTimeout(() => {
      delay = null;
      if (stopped) return;
      clock = startJobClock(
        budget + graceMs(limitMs),
        root,
        () => {
          expired = { file: t.file, index: t.index, limitMs };
          kill();
        },
        // A machine too busy to run the job is the job clock's to say (an error report), never a test's timeout.
        () => undefined,
        undefined,
        true,
        'cpu',
      );
    }, FIRST_SAMPLE_MS);
  };
  return {
    onFrame(f) {
      if (stopped || expired) return;
      if (f.type === 'result' || f.type === 'done') clear();
      const t = announced(f);
      if (t) {
        clear();
        watch(t);
      }
    },
    expired: () => expired,
    stop() {
      stopped = true;
      clear();
    },
  };
}
