// CPU time of one analysis task, counted on the thread that runs it. Analysis
// budgets protect the grader, and a budget in wall time is a budget in how busy
// the machine is: the same file would be "too slow" at a quarter of a core and
// fine when idle. A thread's own CPU time is a property of the work.
//
// The worker thread writes its kernel thread id and its CPU ticks at the start
// of a task into a SharedArrayBuffer (visible at once, even while the thread is
// busy in synchronous ESLint code); the host reads /proc/self/task/<tid>/stat.
import { readFileSync, readlinkSync } from 'node:fs';

/** Clock ticks per second of /proc's utime/stime (USER_HZ: 100 on every Linux ABI Node runs on). */
const TICKS_PER_S = 100;
const NO_PROC = -1;

export type MeterSlot = SharedArrayBuffer;
export const newMeterSlot = (): MeterSlot => new SharedArrayBuffer(8);

/** utime + stime of a thread, in ticks; null where /proc cannot tell. */
function ticksOf(statPath: string): number | null {
  try {
    const stat = readFileSync(statPath, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** Worker side, first thing in a task: where the host can read this thread's CPU time, and from what start. */
export function startMeter(slot: MeterSlot | undefined): void {
  if (!slot) return;
  const cells = new Int32Array(slot);
  let tid = NO_PROC;
  let start = 0;
  try {
    tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    start = ticksOf('/proc/thread-self/stat') ?? 0;
  } catch {
    tid = NO_PROC;
  }
  Atomics.store(cells, 1, start);
  Atomics.store(cells, 0, Number.isInteger(tid) && tid > 0 ? tid : NO_PROC);
}

/** Host side: has the task started, and how much CPU has it used (null: this platform cannot count it). */
export function readMeter(slot: MeterSlot): { started: boolean; cpuMs: number | null } {
  const cells = new Int32Array(slot);
  const tid = Atomics.load(cells, 0);
  if (tid === 0) return { started: false, cpuMs: null };
  if (tid === NO_PROC) return { started: true, cpuMs: null };
  const now = ticksOf(`/proc/self/task/${tid}/stat`);
  return { started: true, cpuMs: now === null ? null : ((now - Atomics.load(cells, 1)) * 1000) / TICKS_PER_S };
}
