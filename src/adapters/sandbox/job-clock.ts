// The job's time limit, counted in the job's own time. A limit in wall time is a limit in how busy the
// machine is: at a quarter of a core a correct submission would be killed. Linux tells, per thread, how
// long it waited for a CPU while runnable (/proc/<pid>/task/<tid>/schedstat, second field: run queue
// waits and CFS throttling alike). The job's own time is wall time minus that wait: CPU it used plus time
// it chose to sleep (timers, a never-settling promise), which no load changes.
import { readdir, readFile } from 'node:fs/promises';
import { EvigradeError } from '../../domain/errors.js';
import { processTree } from './proc-tree.js';

/**
 * Beyond this many times its limit in wall time the grader gives up on the job: a grader failure, not a verdict.
 * Generous on purpose: a quarter of a core shared by eight jobs is 1/32 of a CPU each, and such a job still
 * reaches a verdict. A job that starves itself (busy processes up to its pids limit) still reaches its limit
 * through its busiest thread's CPU, at worst pids × limit / cores of wall time.
 */
export const STARVED_FACTOR = 60;

/** How soon a limit seen in the upper count is confirmed: one CFS period, so a throttled job runs again in between. */
const CONFIRM_MS = 100;

interface Usage {
  /** Wall time of the sample. */
  readonly wallMs: number;
  /** Σ time the job's threads waited for a CPU while runnable, as far as Linux has counted it. */
  readonly waitedMs: number;
  /** CPU time of the job's busiest thread: its own time is never less. */
  readonly busiestMs: number;
  /** Per runnable thread (state R: running, or waiting for a CPU), how many times it has been given a CPU. */
  readonly runnable: ReadonlyMap<string, number>;
}

async function usageOf(pids: readonly number[], wallMs: number): Promise<Usage> {
  let waitedMs = 0;
  let busiestMs = 0;
  const runnable = new Map<string, number>();
  for (const pid of pids) {
    for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
      const task = `/proc/${pid}/task/${tid}`;
      const [run, wait, slices] = (await readFile(`${task}/schedstat`, 'utf8').catch(() => '0 0 0')).split(' ').map(Number);
      waitedMs += (wait ?? 0) / 1e6 || 0;
      busiestMs = Math.max(busiestMs, (run ?? 0) / 1e6 || 0);
      const state = (await readFile(`${task}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.[0];
      if (state === 'R') runnable.set(`${pid}/${tid}`, slices ?? 0);
    }
  }
  return { wallMs, waitedMs, busiestMs, runnable };
}

/**
 * Own time = max(busiest thread's CPU, wall − Σ waits). Summing the waits of threads that wait at the same
 * time over-counts, which only makes the limit more lenient on a starved machine; the busiest thread's
 * CPU keeps a job that computes moving toward its limit whatever the count.
 */
const ownOf = (u: Usage): number => Math.max(u.busiestMs, u.wallMs - u.waitedMs);


/**
 * The least own time a sample can stand for. Linux adds a wait to schedstat only when the thread gets a
 * CPU again, so a thread waiting right now makes `ownOf` too high by the wait in progress. A thread that
 * has had a CPU since `before` waits at most since then; one that has not may have waited all along, and
 * the sample proves nothing. Sleeping threads have no wait in progress: their count is exact.
 */
function ownAtLeast(now: Usage, before: Usage | null): number {
  if (now.runnable.size === 0) return ownOf(now);
  if (!before) return now.busiestMs;
  let pending = 0;
  for (const [tid, slices] of now.runnable) {
    if ((before.runnable.get(tid) ?? -1) >= slices) return now.busiestMs;
    pending += now.wallMs - before.wallMs;
  }
  return Math.max(now.busiestMs, ownOf(now) - pending);
}

/** Time the job spent blocked on the grader (waiting for its payload): the grader's, not the job's. */
export interface GraderWait {
  readonly ms: () => number;
}

export interface JobClock {
  stop(): void;
}

/**
 * Calls `onLimit` once the job rooted at `root()` (asked only when the limit may have been reached) has had `limitMs` of its own time, or `onStarved` once
 * STARVED_FACTOR × limitMs of wall time passed without that (the machine, not the job, is at fault).
 * Checks only when the limit could have been reached, so a job that finishes in time costs one timer.
 */
export function startJobClock(
  limitMs: number, root: () => number | null | Promise<number | null>, onLimit: () => void, onStarved: () => void, graderWait: GraderWait = { ms: () => 0 },
): JobClock {
  const started = performance.now();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let before: Usage | null = null;
  const check = async (): Promise<void> => {
    const wall = performance.now() - started;
    const pid = await root();
    // No process to measure (it has not started or is gone): wall time is all there is.
    const now = pid === null ? { wallMs: wall, waitedMs: 0, busiestMs: wall, runnable: new Map() } : await usageOf(await processTree(pid).catch(() => [pid]), wall);
    const grader = graderWait.ms();
    if (stopped) return;
    if (ownAtLeast(now, before) - grader >= limitMs) return onLimit();
    if (wall >= STARVED_FACTOR * limitMs) return onStarved();
    // Past the limit by the upper count: confirm once the job's runnable threads have had a CPU again.
    const upper = ownOf(now) - grader;
    before = upper >= limitMs ? now : null;
    timer = setTimeout(() => void check(), upper >= limitMs ? CONFIRM_MS : Math.max(25, limitMs - upper));
  };
  timer = setTimeout(() => void check(), limitMs);
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/** The job got too little CPU to finish: the grader's failure (an error report, graded again next run), never a timeout verdict. */
export const starvedError = (limitMs: number): EvigradeError =>
  new EvigradeError('SANDBOX_FAILED', `the machine is too busy: the job had less than ${limitMs} ms of its own time in ${(STARVED_FACTOR * limitMs) / 1000} s of wall time`);
