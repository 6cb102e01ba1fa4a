// The job's time limit, counted in the job's own time. A limit in wall time is a limit in how busy the
// machine is: at a quarter of a core a correct submission would be killed. Linux tells, per thread, how
// long it waited for a CPU while runnable (/proc/<pid>/task/<tid>/schedstat, second field: run queue
// waits and CFS throttling alike). The job's own time is wall time minus that wait: CPU it used plus time
// it chose to sleep (timers, a never-settling promise), which no load changes.
import { readdir, readFile } from 'node:fs/promises';
import { EvigradeError } from '../../domain/errors.js';
import { processTree } from './proc-tree.js';

/** Beyond this many times its limit in wall time the grader gives up on the job: a grader failure, not a verdict. */
export const STARVED_FACTOR = 20;

interface Usage {
  /** Σ time the job's threads waited for a CPU while runnable. */
  readonly waitedMs: number;
  /** CPU time of the job's busiest thread: its own time is never less. */
  readonly busiestMs: number;
}

async function usageOf(pids: readonly number[]): Promise<Usage> {
  let waitedMs = 0;
  let busiestMs = 0;
  for (const pid of pids) {
    for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
      const [run, wait] = (await readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').catch(() => '0 0')).split(' ').map(Number);
      waitedMs += (wait ?? 0) / 1e6 || 0;
      busiestMs = Math.max(busiestMs, (run ?? 0) / 1e6 || 0);
    }
  }
  return { waitedMs, busiestMs };
}

/**
 * Own time = max(busiest thread's CPU, wall − Σ waits). Summing the waits of threads that wait at the same
 * time over-counts, which only makes the limit more lenient on a starved machine; the busiest thread's
 * CPU keeps a job that computes moving toward its limit whatever the count.
 */
export async function ownTimeMs(root: number, wallMs: number): Promise<number> {
  const u = await usageOf(await processTree(root).catch(() => [root]));
  return Math.max(u.busiestMs, wallMs - u.waitedMs);
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
  const check = async (): Promise<void> => {
    const wall = performance.now() - started;
    const pid = await root();
    const own = (pid === null ? wall : await ownTimeMs(pid, wall)) - graderWait.ms();
    if (stopped) return;
    if (own >= limitMs) return onLimit();
    if (wall >= STARVED_FACTOR * limitMs) return onStarved();
    timer = setTimeout(() => void check(), Math.max(25, limitMs - own));
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
