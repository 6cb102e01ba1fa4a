// CPU accounting for the benchmarks: what the processes we start cost, descendants included.
// bwrap's outer process learns its child's exit status through an eventfd and never reaps it, so a job's
// CPU never reaches our cutime. A cpuacct cgroup around the benchmark process counts every descendant,
// reaped or not; without one (not root, cgroup v2 only) we fall back to cutime+cstime and say so.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CPUACCT = '/sys/fs/cgroup/cpuacct';
const TICK_MS = 10; // CLK_TCK is 100 on Linux

/** Starts counting; `childMs()` is the CPU of every process started since, `close()` leaves the cgroup. */
export function childCpu() {
  let group = join(CPUACCT, `evigrade-bench-${process.pid}`);
  try {
    mkdirSync(group);
    writeFileSync(join(group, 'cgroup.procs'), String(process.pid));
  } catch {
    group = null;
  }
  return {
    source: group ? 'cpuacct cgroup (all descendants)' : '/proc/self/stat cutime+cstime (misses unreaped sandbox processes)',
    childMs() {
      if (group) {
        const own = process.cpuUsage();
        return Number(readFileSync(join(group, 'cpuacct.usage'), 'utf8')) / 1e6 - (own.user + own.system) / 1000;
      }
      const stat = readFileSync('/proc/self/stat', 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(f[13]) + Number(f[14])) * TICK_MS; // cutime + cstime
    },
    close() {
      if (!group) return;
      try {
        writeFileSync(join(CPUACCT, 'cgroup.procs'), String(process.pid));
        rmSync(group, { recursive: false, force: true });
      } catch {
        // left for the next run's sweep; harmless
      }
    },
  };
}
