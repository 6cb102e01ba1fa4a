// CPU accounting for the benchmarks: what the processes we start cost, descendants included.
// bwrap's outer process learns its child's exit status through an eventfd and never reaps it, so a job's
// CPU never reaches our cutime. A cpuacct cgroup around the benchmark process counts every descendant,
// reaped or not; without one (not root, cgroup v2 only) we fall back to cutime+cstime and say so.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
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
    source: group
      ? 'cpuacct cgroup (all descendants)'
      : '/proc/self/stat cutime+cstime (misses unreaped sandbox processes)',
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

// Per command: a cpuacct cgroup made for one command alone (so benches can measure commands one by one).
let counter = 0;

function cgroupWorks() {
  try {
    const probe = join(CPUACCT, `evigrade-bench-probe-${process.pid}`);
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}
export const CPU_SOURCE = cgroupWorks()
  ? 'a cpuacct cgroup around each command (every descendant counted)'
  : 'rusage of the children (misses unreaped sandbox processes)';
const useCgroup = CPU_SOURCE.startsWith('a cpuacct');

/**
 * Settings that make every Node process do extra work at start-up, whoever runs it: NODE_EXTRA_CA_CERTS alone
 * (set on this machine) costs ≈ 40 ms of CPU per `node` process. A sandboxed job never sees them (its
 * environment is cleared), so the floor and the peer must not pay them either, nor the grader. Every bench imports
 * this module first, which removes them from its environment: every command it starts runs without them.
 */
const STARTUP_ENV = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'];
// A bench started by run-all.mjs learns the machine's values from its parent, which has already removed them.
const HANDED_DOWN = 'EVIGRADE_BENCH_MACHINE_ENV';
/** What this machine had set among them (a bench may show a figure under the machine's own environment too). */
export const MACHINE_STARTUP_ENV = {
  ...JSON.parse(process.env[HANDED_DOWN] ?? '{}'),
  ...Object.fromEntries(STARTUP_ENV.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])),
};
for (const k of STARTUP_ENV) delete process.env[k];
if (Object.keys(MACHINE_STARTUP_ENV).length) process.env[HANDED_DOWN] = JSON.stringify(MACHINE_STARTUP_ENV);

/**
 * Runs `file args` to completion (killed after `timeoutMs`) and returns its CPU and wall time in ms.
 * The command enters its own cgroup through `sh -c 'echo $$ > cgroup.procs; exec …'`: the shell's exec is the
 * only foreign cost (≈ 1 ms).
 */
export function commandCpu(
  file,
  args,
  { timeoutMs = 300_000, allowFail = false, env, machineEnv = false, ...opts } = {},
) {
  if (machineEnv || env) opts.env = { ...(env ?? process.env), ...(machineEnv ? MACHINE_STARTUP_ENV : {}) };
  const t0 = performance.now();
  let r;
  let cpu;
  if (useCgroup) {
    const dir = join(CPUACCT, `evigrade-bench-${process.pid}-${++counter}`);
    mkdirSync(dir);
    try {
      r = spawnSync('sh', ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', dir, file, ...args], {
        encoding: 'utf8',
        maxBuffer: 256 << 20,
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        ...opts,
      });
      cpu = Number(readFileSync(join(dir, 'cpuacct.usage'), 'utf8')) / 1e6;
    } finally {
      killAll(dir);
      for (let i = 0; i < 50; i++) {
        try {
          rmdirSync(dir);
          break;
        } catch {
          spawnSync('sleep', ['0.02']);
        }
      }
    }
  } else {
    const before = childrenCpu();
    r = spawnSync(file, args, {
      encoding: 'utf8',
      maxBuffer: 256 << 20,
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
      ...opts,
    });
    cpu = childrenCpu() - before;
  }
  const wall = performance.now() - t0;
  if (r.error?.code === 'ETIMEDOUT' || r.signal === 'SIGKILL')
    throw new Error(`${file} ${args.join(' ')}: over its ${timeoutMs / 1000} s bound`);
  if (r.status !== 0 && !allowFail)
    throw new Error(`${file} ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 1500)}`);
  return { cpu, wall, stdout: r.stdout, stderr: r.stderr, status: r.status };
}

function killAll(dir) {
  try {
    for (const pid of readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone
      }
    }
  } catch {
    // no group
  }
}

function childrenCpu() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) * 10; // cutime + cstime, 10 ms ticks
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median CPU and median wall of measured runs of the same command. */
export const medianRun = (xs) => ({ cpu: median(xs.map((x) => x.cpu)), wall: median(xs.map((x) => x.wall)) });

/** Median CPU and wall of `runs` runs of the same command. */
export function medianOf(runs, fn) {
  return medianRun(Array.from({ length: runs }, fn));
}

/** A markdown table. */
export function table(head, rows) {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** One line run-all.mjs collects into the summary table: `BENCH-SUMMARY <figure> | <value> | <baseline>`. */
export function summary(figure, value, baseline) {
  process.stdout.write(`BENCH-SUMMARY ${figure} | ${value} | ${baseline}\n`);
}
