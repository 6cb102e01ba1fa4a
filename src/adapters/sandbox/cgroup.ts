import { readdir } from 'node:fs/promises';
// cgroupfs files are made by the kernel on access and never wait on a disk: each call below is one system call made
// synchronously, where fs/promises costs thread-pool round trips on the grader's main thread (≈ 1 ms of its CPU a job).
// One kind does wait: a write to cgroup.procs (`add`) waits in the kernel for an RCU grace period, ≈ 1 ms idle and
// 10–14 ms with every core busy, nearly all of it asleep. Made on the thread pool instead, it gave a class no shorter
// wall time (the job waits for its confinement either way; bench/README.md, seventh pass), so it stays synchronous.
import { accessSync, constants, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../../util/pid.js';

/**
 * Per-job control groups: the only limits on memory (including Buffers outside
 * V8's heap) and on process count that bind when the grader runs as root
 * (RLIMIT_NPROC does not). Supports cgroup v1 (memory + pids hierarchies) and
 * v2 (one unified tree). When neither is writable, limits are reported as not
 * enforced rather than silently assumed.
 */
export interface JobCgroup {
  readonly version: 'v1' | 'v2';
  add(pid: number): Promise<void>;
  memoryLimitHit(): Promise<boolean>;
  /** Whether a fork was refused because the pids limit was reached. */
  pidsLimitHit(): Promise<boolean>;
  killAll(): Promise<void>;
  remove(): Promise<void>;
}

const ROOT = '/sys/fs/cgroup';
const GROUP = 'evigrade';

async function writable(p: string): Promise<boolean> {
  try {
    accessSync(p, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export async function cgroupVersion(): Promise<'v1' | 'v2' | null> {
  if (await writable(join(ROOT, 'memory')) && await writable(join(ROOT, 'pids'))) return 'v1';
  try {
    const controllers = readFileSync(join(ROOT, 'cgroup.controllers'), 'utf8');
    if (controllers.includes('memory') && controllers.includes('pids') && await writable(ROOT)) return 'v2';
  } catch {
    // not a v2 root
  }
  return null;
}

async function tryWrite(file: string, value: string): Promise<boolean> {
  try {
    writeFileSync(file, value);
    return true;
  } catch {
    return false;
  }
}

/** A cgroup file's text, or `fallback` when it cannot be read (a controller this kernel lacks). */
function readOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

async function procs(dir: string): Promise<number[]> {
  return readOr(join(dir, 'cgroup.procs'), '').split('\n').filter(Boolean).map(Number);
}

async function killDirs(dirs: string[]): Promise<void> {
  for (let round = 0; round < 20; round++) {
    let alive = 0;
    for (const d of dirs) {
      for (const pid of await procs(d)) {
        alive++;
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    if (alive === 0) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function removeDirs(dirs: string[]): Promise<void> {
  await killDirs(dirs);
  for (const d of dirs) {
    for (let i = 0; i < 50; i++) {
      try {
        rmdirSync(d);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') break;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  }
}

export async function createJobCgroup(name: string, memoryBytes: number, pids: number): Promise<JobCgroup | null> {
  const version = await cgroupVersion();
  if (version === 'v1') {
    const mem = join(ROOT, 'memory', GROUP, name);
    const pid = join(ROOT, 'pids', GROUP, name);
    mkdirSync(mem, { recursive: true });
    mkdirSync(pid, { recursive: true });
    writeFileSync(join(mem, 'memory.limit_in_bytes'), String(memoryBytes));
    await tryWrite(join(mem, 'memory.memsw.limit_in_bytes'), String(memoryBytes));
    writeFileSync(join(pid, 'pids.max'), String(pids));
    return {
      version,
      add: async (p) => {
        writeFileSync(join(mem, 'cgroup.procs'), String(p));
        writeFileSync(join(pid, 'cgroup.procs'), String(p));
      },
      memoryLimitHit: async () => {
        const oom = readOr(join(mem, 'memory.oom_control'), '');
        const m = /oom_kill\s+(\d+)/.exec(oom);
        if (m) return Number(m[1]) > 0;
        return Number(readOr(join(mem, 'memory.failcnt'), '0')) > 0;
      },
      pidsLimitHit: async () => /max\s+[1-9]/.test(readOr(join(pid, 'pids.events'), '')),
      killAll: () => killDirs([mem, pid]),
      remove: () => removeDirs([mem, pid]),
    };
  }
  if (version === 'v2') {
    const parent = join(ROOT, GROUP);
    mkdirSync(parent, { recursive: true });
    await tryWrite(join(ROOT, 'cgroup.subtree_control'), '+memory +pids');
    await tryWrite(join(parent, 'cgroup.subtree_control'), '+memory +pids');
    const dir = join(parent, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'memory.max'), String(memoryBytes));
    await tryWrite(join(dir, 'memory.swap.max'), '0');
    writeFileSync(join(dir, 'pids.max'), String(pids));
    return {
      version,
      add: async (p) => writeFileSync(join(dir, 'cgroup.procs'), String(p)),
      memoryLimitHit: async () => /oom_kill\s+[1-9]/.test(readOr(join(dir, 'memory.events'), '')),
      pidsLimitHit: async () => /max\s+[1-9]/.test(readOr(join(dir, 'pids.events'), '')),
      killAll: async () => {
        if (!(await tryWrite(join(dir, 'cgroup.kill'), '1'))) await killDirs([dir]);
      },
      remove: () => removeDirs([dir]),
    };
  }
  return null;
}

/**
 * A pids-only job cgroup (cgroup v1, where each controller is its own hierarchy), for a process tree
 * whose other controllers someone else manages: a Docker container's. Docker removes the container's
 * own cgroup, and with it the record of refused forks (pids.events), as soon as the container stops;
 * this one stays until the grader has read it. Null where there is no separate pids hierarchy.
 */
export async function createPidsCgroup(name: string, pids: number): Promise<Pick<JobCgroup, 'add' | 'pidsLimitHit' | 'remove'> | null> {
  if ((await cgroupVersion()) !== 'v1') return null;
  const dir = join(ROOT, 'pids', GROUP, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'pids.max'), String(pids));
  return {
    add: async (p) => writeFileSync(join(dir, 'cgroup.procs'), String(p)),
    pidsLimitHit: async () => /max\s+[1-9]/.test(readOr(join(dir, 'pids.events'), '')),
    remove: () => removeDirs([dir]),
  };
}

/** Removes job cgroups left by a grader process that no longer exists. */
export async function sweepStaleCgroups(): Promise<number> {
  const version = await cgroupVersion();
  const parents = version === 'v1' ? [join(ROOT, 'memory', GROUP), join(ROOT, 'pids', GROUP)] : version === 'v2' ? [join(ROOT, GROUP)] : [];
  let removed = 0;
  for (const parent of parents) {
    const names = await readdir(parent, { withFileTypes: true }).catch(() => []);
    for (const d of names) {
      if (!d.isDirectory()) continue;
      const owner = Number(d.name.split('-')[0]);
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) continue;
      await removeDirs([join(parent, d.name)]);
      removed++;
    }
  }
  return removed;
}
