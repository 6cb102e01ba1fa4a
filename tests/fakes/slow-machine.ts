// A much slower machine, for real: a CPU cgroup capped at a fraction of one core
// that a process and everything it starts are placed in, plus busy processes
// loading every core beside it. Used to prove that grades do not depend on how
// fast the grader runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const PERIOD_US = 100_000;

export interface CpuCgroup {
  readonly path: string;
  /** Moves a process (and so everything it starts afterwards) into the cgroup. */
  add(pid: number): void;
  close(): void;
}

/** A cgroup capped at `fraction` of one core, on cgroup v2 or v1's cpu controller; null with the reason if none can be made. */
export function cpuCgroup(name: string, fraction: number): CpuCgroup | string {
  const quota = String(Math.round(PERIOD_US * fraction));
  const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers');
  const base = v2 ? '/sys/fs/cgroup' : '/sys/fs/cgroup/cpu';
  const path = join(base, `${name}-${process.pid}`);
  try {
    if (v2 && !readFileSync(join(base, 'cgroup.subtree_control'), 'utf8').includes('cpu'))
      writeFileSync(join(base, 'cgroup.subtree_control'), '+cpu');
    mkdirSync(path, { recursive: true });
    if (v2) writeFileSync(join(path, 'cpu.max'), `${quota} ${PERIOD_US}`);
    else {
      writeFileSync(join(path, 'cpu.cfs_period_us'), String(PERIOD_US));
      writeFileSync(join(path, 'cpu.cfs_quota_us'), quota);
    }
  } catch (e) {
    return `cannot make a CPU cgroup under ${base}: ${(e as Error).message}`;
  }
  return {
    path,
    add: (pid) => writeFileSync(join(path, 'cgroup.procs'), String(pid)),
    close() {
      const procs = readFileSync(join(path, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
      for (const pid of procs) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      try {
        rmdirSync(path);
      } catch {
        // a process still exiting keeps it a moment; the kernel frees an empty cgroup's memory anyway
      }
    },
  };
}

/** Busy loops, one per core: they take whatever CPU the cgroup's processes are not getting. */
export function busyProcesses(count = availableParallelism()): { stop(): void } {
  const kids: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  return { stop: () => kids.forEach((k) => k.kill('SIGKILL')) };
}
