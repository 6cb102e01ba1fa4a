// The job's time limit, counted in the job's own time. A limit in wall time is a limit in how busy the
// machine is: at a quarter of a core a correct submission would be killed. Linux tells, per thread, how
// long it waited for a CPU while runnable (/proc/<pid>/task/<tid>/schedstat, second field: run queue
// waits and CFS throttling alike). The job's own time is wall time minus that wait: CPU it used plus time
// it chose to sleep (timers, a never-settling promise), which no load changes.
//
// The counts live in the threads: when a thread exits, what it waited is gone with it. A job's processes
// end before the grader hears of it (on a starved machine, long before), so a sample taken in between
// sees a job with no waits at all. The clock therefore remembers every thread it has seen, and for a
// thread that vanished it assumes the worst for the verdict's sake: it may have waited all the time since
// it was last seen. Only what is proven by the samples can reach the limit.
import { readdirSync } from 'node:fs';
import { EvigradeError } from '../../domain/errors.js';
import { processTree, readOr } from './proc-tree.js';

const tasksOf = (pid: number): string[] => {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
};

/**
 * Beyond this many times its limit in wall time the grader gives up on the job: a grader failure, not a verdict.
 * Generous on purpose: a quarter of a core shared by eight jobs is 1/32 of a CPU each, and such a job still
 * reaches a verdict. A job that starves itself (busy processes up to its pids limit) still reaches its limit
 * through its busiest thread's CPU, at worst pids × limit / cores of wall time.
 */
export const STARVED_FACTOR = 60;

/** How soon a limit seen in the upper count is confirmed: one CFS period, so a throttled job runs again in between. */
const CONFIRM_MS = 100;

/** The longest gap between samples (also capped at a quarter of the limit): what a vanished thread may hide. */
const MAX_GAP_MS = 1000;

/** One thread as /proc shows it. */
export interface ThreadUsage {
  /** CPU time it has used. */
  readonly runMs: number;
  /** Time it waited for a CPU while runnable, as far as Linux has counted it (a wait in progress is not yet in). */
  readonly waitMs: number;
  /** How many times it has been given a CPU. */
  readonly slices: number;
  /** Running or waiting for a CPU right now (state R). */
  readonly runnable: boolean;
}

/** The job's threads at one moment, keyed "pid/tid"; empty once its processes are gone. */
export interface Sample {
  readonly wallMs: number;
  readonly threads: ReadonlyMap<string, ThreadUsage>;
}

/** What the clock knows after its samples so far. */
export interface ClockState {
  /** Every thread ever seen, as last seen. */
  readonly seen: ReadonlyMap<string, ThreadUsage>;
  /** The previous sample. */
  readonly last: Sample | null;
  /** Σ over vanished threads of the time between their last sighting and the first sample without them. */
  readonly unknownMs: number;
}

export const initialClock: ClockState = { seen: new Map(), last: null, unknownMs: 0 };

/**
 * Folds a sample into the state: threads gone since the last sample add the gap to what is unknown. Once
 * every thread is gone the job has ended and its own time stops; the samples of it stand as they were.
 */
export function observe(state: ClockState, now: Sample): ClockState {
  if (now.threads.size === 0 && state.seen.size > 0) return state;
  const seen = new Map(state.seen);
  for (const [id, t] of now.threads) seen.set(id, t);
  let unknownMs = state.unknownMs;
  for (const id of state.last?.threads.keys() ?? []) if (!now.threads.has(id)) unknownMs += now.wallMs - (state.last as Sample).wallMs;
  return { seen, last: now, unknownMs };
}

const sum = (state: ClockState, f: (t: ThreadUsage) => number, op: (a: number, b: number) => number): number =>
  [...state.seen.values()].reduce((acc, t) => op(acc, f(t)), 0);

/**
 * The most own time the job can have had: every wait Linux has counted is subtracted, nothing unknown is.
 * A job none of whose threads was ever visible (its processes not in this /proc) has wall time only.
 */
export function ownAtMost(state: ClockState): number {
  if (!state.last) return 0;
  if (state.seen.size === 0) return state.last.wallMs;
  const busiest = sum(state, (t) => t.runMs, Math.max);
  return Math.max(busiest, state.last.wallMs - sum(state, (t) => t.waitMs, (a, b) => a + b));
}

/**
 * The least own time the samples prove. Besides what vanished threads may hide, a thread runnable now may
 * be in a wait Linux has not added yet: one that has had a CPU since `before` waits at most since then; one
 * that has not may have waited all along, and then only the busiest thread's CPU is proven.
 */
export function ownAtLeast(state: ClockState, before: Sample | null): number {
  const now = state.last;
  if (!now) return 0;
  if (state.seen.size === 0) return now.wallMs;
  const busiest = sum(state, (t) => t.runMs, Math.max);
  let pending = 0;
  for (const [id, t] of now.threads) {
    if (!t.runnable) continue;
    if (!before) return busiest;
    // Runnable then and given no CPU since: it may have been waiting all along.
    const earlier = before.threads.get(id);
    if (earlier?.runnable && earlier.slices >= t.slices) return busiest;
    pending += now.wallMs - before.wallMs;
  }
  return Math.max(busiest, ownAtMost(state) - state.unknownMs - pending);
}

/** Each thread of the process tree rooted at `pid` (the tree is empty once the root is gone). */
async function sampleTree(pid: number | null, wallMs: number): Promise<Sample> {
  const threads = new Map<string, ThreadUsage>();
  const pids = pid === null ? [] : await processTree(pid).catch(() => [pid]);
  for (const p of pids) {
    for (const tid of tasksOf(p)) {
      const task = `/proc/${p}/task/${tid}`;
      const stat = readOr(`${task}/schedstat`, '');
      if (stat === '') continue;
      const [run, wait, slices] = stat.split(' ').map(Number);
      const state = readOr(`${task}/stat`, '').split(') ')[1]?.[0];
      threads.set(`${p}/${tid}`, { runMs: (run ?? 0) / 1e6 || 0, waitMs: (wait ?? 0) / 1e6 || 0, slices: slices ?? 0, runnable: state === 'R' });
    }
  }
  return { wallMs, threads };
}

/** Time the job spent blocked on the grader (waiting for its payload): the grader's, not the job's. */
export interface GraderWait {
  readonly ms: () => number;
}

export interface JobClock {
  stop(): void;
}

/** The CPU time of the job's busiest thread: what a loop that never gives control back burns, and nothing else. */
export const busiestCpu = (state: ClockState): number => sum(state, (t) => t.runMs, Math.max);

/**
 * A sample counted from `base` on: each thread's CPU and waits less what it had at `base` (a thread born since counts
 * whole), the wall time from base's. A clock started in the middle of a job (one test's, test-watch.ts) measures
 * only what came after its first sample: the busiest thread's earlier CPU is not that test's time.
 */
export function rebase(now: Sample, base: Sample): Sample {
  const threads = new Map<string, ThreadUsage>();
  for (const [id, t] of now.threads) {
    const b = base.threads.get(id);
    threads.set(id, b ? { ...t, runMs: Math.max(0, t.runMs - b.runMs), waitMs: Math.max(0, t.waitMs - b.waitMs), slices: Math.max(0, t.slices - b.slices) } : t);
  }
  return { wallMs: now.wallMs - base.wallMs, threads };
}

/**
 * Calls `onLimit` once the job rooted at `root()` has had `limitMs` of its own time, or `onStarved` once
 * STARVED_FACTOR × limitMs of wall time passed without that (the machine, not the job, is at fault).
 * Samples from the start, at most MAX_GAP_MS (and a quarter of the limit) apart, so a thread that exits
 * between samples hides little; a job that finishes in time costs a handful of /proc reads.
 */
export function startJobClock(
  limitMs: number, root: () => number | null | Promise<number | null>, onLimit: () => void, onStarved: () => void, graderWait: GraderWait = { ms: () => 0 },
  /** Count from the first sample on (the clock of one test, started while the job runs), not from the job's start. */
  fromFirstSample = false,
  /**
   * 'own': CPU plus time the job chose to sleep (the job's limit). 'cpu': the busiest thread's CPU only (one test's
   * watch, test-watch.ts), which nothing outside the job changes: not a CPU wait, a disk wait or a slow reader of its pipes.
   */
  count: 'own' | 'cpu' = 'own',
): JobClock {
  const started = performance.now();
  const gap = Math.max(25, Math.min(MAX_GAP_MS, limitMs / 4));
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let state = initialClock;
  let before: Sample | null = null;
  let base: Sample | null = null;
  const check = async (): Promise<void> => {
    const raw = await sampleTree(await root(), performance.now() - started);
    if (stopped) return;
    if (fromFirstSample) base ??= raw;
    const now = base ? rebase(raw, base) : raw;
    state = observe(state, now);
    const grader = graderWait.ms();
    const cpu = count === 'cpu' ? busiestCpu(state) : null;
    if ((cpu ?? ownAtLeast(state, before) - grader) >= limitMs) return onLimit();
    if (now.wallMs >= STARVED_FACTOR * limitMs) return onStarved();
    // Past the limit by the upper count: confirm once the job's runnable threads have had a CPU again.
    const upper = cpu ?? ownAtMost(state) - grader;
    before = upper >= limitMs ? now : null;
    timer = setTimeout(() => void check(), upper >= limitMs ? CONFIRM_MS : Math.max(25, Math.min(gap, limitMs - upper)));
  };
  void check();
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
