import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { EvigradeError } from '../../domain/errors.js';
import { createJobCgroup, type JobCgroup } from './cgroup.js';
import { codeCacheFor } from './code-cache.js';
import { createFrameParser } from './frames.js';
import { harnessSnapshotFor } from './harness-snapshot.js';
import { startJobClock, starvedError } from './job-clock.js';
import { processTree } from './proc-tree.js';
import { HOLDER_PROGRAM, joinWhenHeld, type ForkExit, type Join, type PythonForks } from './python-forks.js';
import { watchTests } from './test-watch.js';
import { SANDBOX_PY_HARNESS, SANDBOX_PYTHON } from './python-rootfs.js';
import { materialiseRoot, SANDBOX_HARNESS, SANDBOX_HARNESS_DIR, SANDBOX_NODE, SANDBOX_ROOT } from './rootfs.js';
import type { Runtime } from '../../domain/languages.js';
import type { RawRun, SandboxJob } from '../../domain/sandbox.js';
import { jobNodeArgs } from '../../runtime/node-flags.js';
import { JOB_ENV, type BackendDef } from './types.js';
import { leaseJobUid } from './uid-lease.js';

const MB = 1024 * 1024;
/** Result frames are small; a job flooding fd 3 is treated like an output flood. */
const FRAME_BYTES_CAP = 16 * MB;
let jobCounter = 0;
export interface RunnerDeps {
  readonly base: string;
  /** The job root for a runtime (built once, on first use). */
  readonly rootfs: (runtime: Runtime) => Promise<string>;
  /** Aborted on Ctrl-C or shutdown: every running job is killed and its run rejects (no evidence about the student). */
  readonly signal?: AbortSignal;
  /** Python jobs forked from a pre-imported test process into their own sandbox (python-forks.ts), where the backend allows it. */
  readonly pythonForks?: PythonForks;
}

/**
 * Lays out a fresh job directory the job itself can never write. Synchronously, as its removal: a submission's few
 * small files, on the grader's own disk; through fs/promises each mkdir, open, write, close and unlink was a round
 * trip through libuv's thread pool (≈ 20 a job, each waking a pool thread and then the event loop).
 */
async function prepareJobDir(def: BackendDef, rootfs: string, job: SandboxJob, jobDir: string): Promise<void> {
  mkdirSync(jobDir, { recursive: true, mode: 0o755 });
  if (def.needsRootTree) await materialiseRoot(rootfs, jobDir);
  const sub = join(jobDir, SANDBOX_ROOT);
  mkdirSync(sub, { recursive: true, mode: 0o755 });
  for (const f of job.files) {
    const dest = join(sub, f.path);
    mkdirSync(dirname(dest), { recursive: true, mode: 0o755 });
    writeFileSync(dest, f.content, { flag: 'wx', mode: 0o644 });
  }
}

/**
 * Node's permission model for every JavaScript job whose paths are the sandbox's: the job may read its own files,
 * the harness, /tmp and its own schedstat (the job clock, own-clock.cjs), write only /tmp (and, under Docker, deliver its
 * files), and start no process. Student code runs in the harness's process with the host `fs`; without this,
 * `/proc/self/mem` (which a process may always open for itself, read-write) hands it the channel key and the
 * harness's memory (red-team pass 2026-11-23; hostile tests in tests/hostile/isolation.test.ts). Run-time flags:
 * the start-up snapshot and code cache do not depend on them.
 */
export const JOB_PERMISSIONS: readonly string[] = [
  '--experimental-permission',
  // One path per flag (a directory's `/*` covers it and everything under it); no symlink can be made with these.
  `--allow-fs-read=${SANDBOX_ROOT}/*`,
  `--allow-fs-read=${SANDBOX_HARNESS_DIR}/*`,
  '--allow-fs-read=/proc/self/schedstat',
  '--allow-fs-read=/proc/self/status', // its own ids and capabilities: nothing of the harness's
  '--allow-fs-read=/tmp/*', // what the job wrote there (a file-I/O exercise reads it back)
  '--allow-fs-write=/tmp/*',
  `--allow-fs-write=${SANDBOX_ROOT}/*`,
  // Node's loader hooks (an ES-module test with top-level await) run on a worker thread; student code cannot start one.
  '--allow-worker',
  '--disable-warning=ExperimentalWarning',
];

/**
 * The permission flags of a job. A rubric audit's coverage run of the instructor's reference (payload.coverage, set
 * only by audit/coverage.ts, never for a submission) runs without them: Node 20's permission model refuses the
 * inspector outright, and V8's coverage is read through it. The sandbox (namespaces, read-only root, no network,
 * cgroup limits) stays the boundary; the code is the rubric's own.
 */
export const jobPermissions = (job: Pick<SandboxJob, 'payload'>): readonly string[] =>
  job.payload.coverage === true ? [] : JOB_PERMISSIONS;

/** The harness's argv inside the job's root. Python: isolated mode (no environment, no user site, no script dir on the path), no bytecode written. */
export const PYTHON_PROGRAM: readonly string[] = [SANDBOX_PYTHON, '-I', '-B', SANDBOX_PY_HARNESS];

export async function programOf(job: SandboxJob, rootfs: string, def: Pick<BackendDef, 'hostPaths'>): Promise<string[]> {
  if (job.runtime === 'python') return [...PYTHON_PROGRAM];
  const args = jobNodeArgs(job.limits.memory_mb);
  // From the start-up snapshot when one could be made here (and the job sees the paths it names), else from
  // boot.cjs through its code cache.
  const snapshot = def.hostPaths ? null : await harnessSnapshotFor(rootfs, args);
  if (snapshot) return [SANDBOX_NODE, ...args, ...jobPermissions(job), '--snapshot-blob', snapshot];
  const cache = await codeCacheFor(rootfs, args);
  // The unsafe backend's job sees host paths (and no isolation at all): the permission paths would not match.
  const permissions = def.hostPaths ? [] : jobPermissions(job);
  return [SANDBOX_NODE, ...args, ...permissions, SANDBOX_HARNESS, ...(cache ? [cache] : [])];
}

/**
 * rlimits for the whole job. RLIMIT_NPROC counts every process of the job's
 * host uid, so it is only set where that uid is the job's alone (unshare);
 * under bwrap the host uid is root's and the pids cgroup does the counting.
 */
function prlimitWrap(file: string, args: string[], job: SandboxJob, nproc: number | null): { file: string; args: string[] } {
  const l = job.limits;
  const fsize = l.file_size_kb * 1024;
  const limits = [`--nofile=${l.open_files}:${l.open_files}`, `--fsize=${fsize}:${fsize}`, '--core=0:0'];
  if (nproc !== null) limits.push(`--nproc=${nproc}:${nproc}`);
  return { file: 'prlimit', args: [...limits, '--', file, ...args] };
}

/** With a pids cgroup, RLIMIT_NPROC is only a backstop set a little higher, so the cgroup (which reports hits) binds first. */
const nprocLimit = (def: BackendDef, job: SandboxJob, cgroups: boolean): number | null =>
  def.ownHostUid ? job.limits.pids + (cgroups ? 16 : 0) : null;

export async function runInSandbox(def: BackendDef, deps: RunnerDeps, job: SandboxJob): Promise<RawRun> {
  const id = `${process.pid}-${++jobCounter}-${randomBytes(4).toString('hex')}`;
  const jobDir = join(deps.base, 'jobs', id);
  let cgroup: JobCgroup | null = null;
  // A backend that runs the job as a host uid of its own leases one host-wide (not per grader process).
  const lease = def.ownHostUid ? await leaseJobUid() : null;
  try {
    const rootfs = await deps.rootfs(job.runtime);
    const forks = job.runtime === 'python' && def.pythonForks.ok && (await deps.pythonForks?.usable()) ? deps.pythonForks : undefined;
    // First: it may place files (snapshot, code cache) in the root a job directory is then linked from.
    const program = forks ? [...HOLDER_PROGRAM] : await programOf(job, rootfs, def);
    await prepareJobDir(def, rootfs, job, jobDir);
    cgroup = await createJobCgroup(id, job.limits.memory_mb * MB, job.limits.pids).catch(() => null);
    const uid = lease?.uid ?? 65534;
    const cmd = def.command({ rootfs, jobDir, limits: job.limits, program, uid });
    const payload = cmd.root ? { ...job.payload, root: cmd.root } : job.payload;
    return await execute({ ...prlimitWrap(cmd.file, cmd.args, job, nprocLimit(def, job, cgroup !== null)), env: cmd.env ?? { PATH: JOB_ENV.PATH as string } }, { ...job, payload }, cgroup, deps.signal, forks && ((holder) => forks.fork(holder, job.limits)));
  } finally {
    if (cgroup) await cgroup.remove().catch(() => undefined);
    try {
      rmSync(jobDir, { recursive: true, force: true });
    } catch {
      // left for the work directory's removal when the sandbox closes (registry.ts)
    }
    // Only now is the job's process tree gone (killed with its cgroup or its pid namespace).
    await lease?.release();
  }
}

interface Capture {
  stdout: Buffer[];
  stderr: Buffer[];
  bytes: number;
}

function execute(cmd: { file: string; args: string[]; env: Record<string, string> }, job: SandboxJob, cgroup: JobCgroup | null, abort?: AbortSignal, join?: Join): Promise<RawRun> {
  const key = randomBytes(32).toString('hex');
  // Each test's own limit, from outside (a loop that never yields cannot be stopped from inside the job).
  const tests = watchTests(() => jobRoot, () => kill());
  const parser = createFrameParser(key, tests.onFrame);
  const started = performance.now();
  const cap = job.limits.output_kb * 1024;
  // The harness enforces the cap in job time; this backstop (for writes that
  // bypass process.stdout) kills the job and stops taking its results.
  const killAt = 2 * cap + 64 * 1024;
  const out: Capture = { stdout: [], stderr: [], bytes: 0 };
  let timedOut = false;
  let interrupted = false;
  let outputLimitHit = false;
  let frameBytes = 0;

  const child = spawn(cmd.file, cmd.args, {
    stdio: join ? ['pipe', 'pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe', 'pipe'],
    env: cmd.env,
    detached: true,
  });
  const forked = join ? joinWhenHeld(child, join) : null;
  let forkExit: ForkExit | null = null;
  let forkError: Error | null = null;
  // The job's tree: the forked process once it exists, else what was spawned.
  let jobRoot: number | null = join ? null : (child.pid ?? null);
  const kill = (): void => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // group already gone
    }
    void cgroup?.killAll();
  };
  const interrupt = (): void => {
    interrupted = true;
    kill();
  };
  abort?.addEventListener('abort', interrupt, { once: true });
  if (abort?.aborted) interrupt();
  void forked?.then(
    (f) => {
      jobRoot = f.pid;
      // The job ended: the holder is let go, and bwrap ends with it.
      void f.exit.then((e) => {
        forkExit = e;
        (child.stdio[4] as Readable | null)?.destroy();
      });
    },
    (e: Error) => {
      forkError = e;
      kill();
    },
  );
  let starved = false;
  let helloAt = 0;
  let payloadAt = 0;
  // The limit counts the job's own time (not time it spent waiting for a CPU), so load never kills a job.
  const clock = startJobClock(job.limits.timeout_ms, () => jobRoot, () => {
    timedOut = true;
    kill();
  }, () => {
    starved = true;
    kill();
  }, { ms: () => (helloAt === 0 ? 0 : (payloadAt || performance.now()) - helloAt) });

  const capture = (which: 'stdout' | 'stderr') => (chunk: Buffer) => {
    const room = cap - out.bytes;
    if (room > 0) out[which].push(chunk.subarray(0, room));
    out.bytes += chunk.length;
    if (out.bytes > killAt && !outputLimitHit) {
      outputLimitHit = true;
      kill();
    }
  };
  (child.stdout as Readable).on('data', capture('stdout'));
  (child.stderr as Readable).on('data', capture('stderr'));
  (child.stdin as Writable).on('error', () => undefined); // the job may close stdin early

  let pending = '';
  let payloadSent = false;
  const results = child.stdio[3] as Readable;
  results.on('data', (chunk: Buffer) => {
    frameBytes += chunk.length;
    if (frameBytes > FRAME_BYTES_CAP) {
      if (!outputLimitHit) {
        outputLimitHit = true;
        kill();
      }
      return;
    }
    if (outputLimitHit) return; // results after a flood cannot be ordered against it
    pending += chunk.toString('utf8');
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      parser.push(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      if (parser.helloSeen && !payloadSent) {
        payloadSent = true;
        helloAt = performance.now();
        // A forked job: its own tree and bwrap's (the holder) both go into the job's cgroups, as a whole job's tree does.
        void (forked ?? Promise.resolve(null)).then((f) => confine([child.pid as number, ...(f ? [f.pid] : [])], cgroup)).then(
          () => {
            payloadAt = performance.now();
            (child.stdin as Writable).end(JSON.stringify({ ...job.payload, key }));
          },
          () => kill(),
        );
      }
    }
  });

  return new Promise((resolve, reject) => {
    child.on('error', (err) => {
      clock.stop();
      tests.stop();
      abort?.removeEventListener('abort', interrupt);
      reject(new EvigradeError('SANDBOX_FAILED', `could not start the sandbox (${cmd.file}): ${err.message}`));
    });
    let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;
    const settle = (): void => {
      if (settled || !exitInfo) return;
      settled = true;
      for (const s of [child.stdout, child.stderr, results]) s?.destroy();
      void finish(exitInfo.code, exitInfo.signal);
    };
    const finish = async (code: number | null, signal: NodeJS.Signals | null): Promise<void> => {
      if (interrupted) return reject(new EvigradeError('SANDBOX_FAILED', 'the job was interrupted by the grader'));
      if (forkError) return reject(forkError);
      if (forkExit) ({ code, signal } = forkExit);
      if (starved) return reject(starvedError(job.limits.timeout_ms));
      const memoryLimitHit = (await cgroup?.memoryLimitHit().catch(() => false)) ?? false;
      const pidsLimitHit = (await cgroup?.pidsLimitHit().catch(() => false)) ?? false;
      resolve({
        frames: parser.frames,
        rejectedFrames: parser.rejected,
        exitCode: code,
        signal,
        timedOut,
        testTimeout: tests.expired(),
        outputLimitHit,
        memoryLimitHit,
        pidsLimitHit,
        stdout: Buffer.concat(out.stdout).toString('utf8'),
        stderr: Buffer.concat(out.stderr).toString('utf8'),
        wallMs: Math.round(performance.now() - started),
      });
    };
    child.on('exit', (code, signal) => {
      clock.stop();
      tests.stop();
      abort?.removeEventListener('abort', interrupt);
      exitInfo = { code, signal };
      // Anything the job left behind (daemons holding our pipes) dies with it;
      // 'close' then follows once the pipes drain, with a fallback if it never does.
      kill();
      setTimeout(settle, 250).unref();
    });
    child.on('close', (code, signal) => {
      exitInfo ??= { code, signal };
      settle();
    });
  });
}

/** Moves the job's processes into its cgroup before any student code exists. */
async function confine(roots: number[], cgroup: JobCgroup | null): Promise<void> {
  if (!cgroup) return;
  for (const root of roots) for (const p of await processTree(root)) await cgroup.add(p);
}
