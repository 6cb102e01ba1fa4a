// Docker cells: one container serving up to `perCell` jobs of a batch, one after another. Each container costs the
// engine ≈ 150 ms of CPU (create, attach, start, wait, remove through dockerd, containerd, a shim and runc), which a
// container per job paid per submission; a cell pays it once per `perCell` jobs. What one container per job
// guaranteed holds per job (docs/sandboxes.md "Docker cells"):
//  - the container: never privileged, network none, read-only root, no-new-privileges, seccomp, IpcMode none, and
//    SysV IPC, POSIX message queues and TCP TIME_WAIT off in its own namespaces (docker.ts: nothing a process can
//    leave in the kernel after it dies); SETUID, SETGID and KILL for the runner (sandbox/cell/runner.cjs) only;
//  - each job's harness runs as uid 65534 without capabilities, in memory and pids cgroups of its own made here with
//    the job's exact limits (as bwrap's are), moved there before its payload exists; its own time, each test's CPU,
//    its output cap and any stop from outside act as on a one-job container, and such a stop kills the whole cell;
//  - between jobs the runner kills every process but itself and docker-init, drains the job's pipes, empties /tmp
//    and /job/sub and proves both back to their first state; only a cell it reports clean serves again, else it is
//    removed. A cell that dies fails only the job in it: the next job takes a new one.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { constants } from 'node:os';
import type Docker from 'dockerode';
import { EvigradeError } from '../../domain/errors.js';
import { sha256 } from '../../util/hash.js';
import { createJobCgroup, type JobCgroup } from './cgroup.js';
import { createRecordReader, createJobOutput, type CellClean, type CellExit, type JobOutput } from './cell-wire.js';
import { CELL_RUNNER, containerConfig, engine, type HostFile } from './docker.js';
import type { DockerRunner } from './docker-pool.js';
import { startJobClock, starvedError } from './job-clock.js';
import { SANDBOX_NODE } from './rootfs.js';
import { watchTests } from './test-watch.js';
import type { RawRun, SandboxJob } from '../../domain/sandbox.js';

const MB = 1024 * 1024;
/** Room in the container's own limits for docker-init and the runner (node), beside the job's exact cgroups. */
const RUNNER_MB = 256;
const RUNNER_PIDS = 64;

/**
 * A cell's container: a one-job container's configuration (kernel objects a job could leave behind already switched off
 * there) with the runner in front, under docker-init, which reaps the orphans a job leaves, and CAP_KILL for it.
 */
export function cellConfig(image: string, job: SandboxJob, program: readonly string[], host: { files?: readonly HostFile[]; cgroupParent?: string | null }): Docker.ContainerCreateOptions {
  const base = containerConfig(image, job, [SANDBOX_NODE, CELL_RUNNER, ...program], host);
  const l = job.limits;
  return {
    ...base,
    HostConfig: {
      ...base.HostConfig,
      Init: true,
      CapAdd: ['SETUID', 'SETGID', 'KILL'],
      Memory: (l.memory_mb + RUNNER_MB) * MB,
      MemorySwap: (l.memory_mb + RUNNER_MB) * MB,
      PidsLimit: l.pids + RUNNER_PIDS,
    },
  };
}

interface Cell {
  readonly c: Docker.Container;
  readonly stream: NodeJS.ReadWriteStream;
  /** docker-init's host pid; the runner is its only child. */
  init: number;
  served: number;
  exited: boolean;
  exit: Promise<unknown>;
  /** Settles at the runner's next 'r' (a harness waiting), or rejects once the cell ends. */
  ready: Promise<void>;
  /** Settles at the runner's next 'd'. */
  clean: Promise<CellClean>;
  /** The job in the cell, if any. */
  job: { out: JobOutput; exited(e: CellExit): void } | null;
  /** Arms `ready` and `clean` for the job about to be sent. */
  arm(): void;
}

const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(v: T): void;
  reject(e: Error): void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

async function startCell(config: Docker.ContainerCreateOptions, live: Set<string>): Promise<Cell> {
  const c = await (await engine()).createContainer(config);
  live.add(c.id);
  const stream = await c.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true });
  let ready = deferred<void>();
  let clean = deferred<CellClean>();
  const cell: Cell = {
    c, stream, init: 0, served: 0, exited: false, exit: Promise.resolve(), ready: ready.promise, clean: clean.promise, job: null,
    arm() {
      ready = deferred<void>();
      clean = deferred<CellClean>();
      cell.ready = ready.promise;
      cell.clean = clean.promise;
      if (cell.exited) end();
    },
  };
  const end = (): void => {
    cell.exited = true;
    ready.reject(new Error('the cell ended'));
    clean.reject(new Error('the cell ended'));
  };
  const read = createRecordReader({
    onReady: () => ready.resolve(),
    // Detached at once: the records after 'x' in the same chunk (the next harness's hello) are not this job's.
    onExit: (e) => {
      const job = cell.job;
      cell.job = null;
      job?.exited(e);
    },
    onClean: (k) => clean.resolve(k),
    onOutput: (which, b) => cell.job?.out.push(which, b),
  });
  const stdout = new PassThrough();
  c.modem.demuxStream(stream, stdout, new PassThrough().resume());
  // A record that cannot be read: the runner is broken, and the cell with it.
  stdout.on('data', (b: Buffer) => void (read(b) || c.kill().catch(() => undefined)));
  await c.start();
  const exit = c.wait().finally(end);
  exit.catch(() => undefined);
  const init = await c.inspect().then((i) => i.State.Pid, () => 0);
  return Object.assign(cell, { exit, init });
}

/**
 * The harness waiting in the cell, as a host pid: the runner's only child. Anything else (no runner, a second child)
 * is a cell not in the state it claims, and is not used.
 */
function harnessOf(cell: Cell): number | null {
  const runners = childrenOf(cell.init);
  if (runners.length !== 1) return null;
  const kids = childrenOf(runners[0] as number);
  return kids.length === 1 ? (kids[0] as number) : null;
}

export interface CellRunnerOptions {
  /** Jobs a cell serves before it is removed (`sandbox.docker_cell`). */
  readonly perCell: number;
  readonly signal?: AbortSignal;
  readonly cgroupParent: string | null;
}

export function createCellRunner(imageFor: (runtime: SandboxJob['runtime']) => Promise<string>, opts: CellRunnerOptions): DockerRunner {
  const live = new Set<string>();
  const idle: { key: string; cell: Cell }[] = [];
  const removing = new Set<Promise<void>>();
  let remaining: number | null = null;
  const retire = (cell: Cell): void => {
    live.delete(cell.c.id);
    (cell.stream as unknown as { destroy(): void }).destroy();
    const gone: Promise<void> = cell.c
      .remove({ force: true, v: true })
      .catch(() => undefined)
      .finally(() => removing.delete(gone));
    removing.add(gone);
  };
  // Cells between two jobs: their runner cleaning up and starting the next harness (a few ms). A job waits for one
  // rather than paying for a new container.
  const recycling: { key: string; cell: Promise<Cell | null> }[] = [];
  // After its job: back among the idle cells once its runner proves it clean and a new harness waits; else removed.
  const recycle = (key: string, cell: Cell, next: boolean): void => {
    if (!next) return void cell.exit.finally(() => retire(cell));
    const back = Promise.all([cell.clean, cell.ready]).then(
      ([k]) => (k.clean && !cell.exited ? cell : (retire(cell), null)),
      () => (retire(cell), null),
    );
    const entry = { key, cell: back };
    recycling.push(entry);
    void back.then((c) => {
      const i = recycling.indexOf(entry);
      if (i < 0) return; // a job took it while it was being cleaned
      recycling.splice(i, 1);
      if (c) idle.push({ key, cell: c });
    });
  };
  const take = async (key: string, config: Docker.ContainerCreateOptions): Promise<Cell> => {
    for (let i = idle.findIndex((x) => x.key === key); i >= 0; i = idle.findIndex((x) => x.key === key)) {
      const { cell } = idle.splice(i, 1)[0] as { cell: Cell };
      if (!cell.exited) return cell;
      retire(cell);
    }
    const r = recycling.findIndex((x) => x.key === key);
    if (r >= 0) {
      const back = await (recycling.splice(r, 1)[0] as { cell: Promise<Cell | null> }).cell;
      if (back && !back.exited) return back;
    }
    return startCell(config, live);
  };

  return {
    async run(job, program, files = []) {
      const config = cellConfig(await imageFor(job.runtime), job, program, { files, cgroupParent: opts.cgroupParent });
      const key = sha256(JSON.stringify(config)).slice(0, 12);
      if (remaining !== null) remaining = Math.max(0, remaining - 1);
      const cell = await take(key, config);
      const next = cell.served + 1 < opts.perCell && (remaining === null || remaining > 0);
      let reusable = false;
      try {
        const run = await serve(cell, job, next, opts.signal);
        reusable = run.reusable;
        return run.raw;
      } finally {
        if (reusable) recycle(key, cell, next);
        else {
          void cell.c.kill().catch(() => undefined);
          retire(cell);
        }
      }
    },
    expect(jobs) {
      remaining = Math.max(0, jobs);
    },
    async close() {
      for (const { cell } of idle.splice(0)) retire(cell);
      for (const id of [...live]) void (await engine()).getContainer(id).remove({ force: true, v: true }).catch(() => undefined);
      live.clear();
      await Promise.all([...removing]);
    },
  };
}

/** The submission's files as the runner writes them into /job/sub (as root, before the harness has its payload). */
const payloadFiles = (job: SandboxJob): { path: string; base64: string }[] =>
  job.files.map((f) => ({ path: f.path, base64: Buffer.from(f.content).toString('base64') }));

const message = (body: unknown): Buffer => {
  const json = Buffer.from(JSON.stringify(body));
  const head = Buffer.alloc(4);
  head.writeUInt32BE(json.length);
  return Buffer.concat([head, json]);
};

const signalNumber = (s: NodeJS.Signals): number => (constants.signals as Record<string, number>)[s] ?? 0;

/** Runs one job in the cell; `reusable`: the cell may serve again (nothing stopped it from outside, its runner lives). */
async function serve(cell: Cell, job: SandboxJob, next: boolean, signal?: AbortSignal): Promise<{ raw: RawRun; reusable: boolean }> {
  await cell.ready.catch(() => {
    throw new EvigradeError('SANDBOX_FAILED', 'docker: the cell ended before its harness was ready');
  });
  const harness = harnessOf(cell);
  if (harness === null) throw new EvigradeError('SANDBOX_FAILED', 'docker: the cell holds no single waiting harness');
  const cgroup = await createJobCgroup(`${process.pid}-cell-${cell.c.id.slice(0, 12)}-${cell.served}`, job.limits.memory_mb * MB, job.limits.pids);
  if (!cgroup) throw new EvigradeError('SANDBOX_FAILED', 'docker: no cgroup for the job in its cell');
  try {
    await cgroup.add(harness);
    return await execute(cell, harness, job, next, cgroup, signal);
  } finally {
    await cgroup.remove().catch(() => undefined);
  }
}

async function execute(cell: Cell, harness: number, job: SandboxJob, next: boolean, cgroup: JobCgroup, signal?: AbortSignal): Promise<{ raw: RawRun; reusable: boolean }> {
  let timedOut = false;
  let interrupted = false;
  let starved = false;
  let stopped = false;
  // Any stop from outside takes the whole cell: exactly what it did to a one-job container.
  const kill = (): void => {
    stopped = true;
    void cell.c.kill().catch(() => undefined);
  };
  const interrupt = (): void => {
    interrupted = true;
    kill();
  };
  signal?.addEventListener('abort', interrupt, { once: true });
  if (signal?.aborted) interrupt();
  const tests = watchTests(() => harness, kill);
  const key = randomBytes(32).toString('hex');
  const out = createJobOutput(key, job.limits.output_kb * 1024, tests.onFrame, kill);
  const ended = deferred<CellExit>();
  cell.job = { out, exited: (e) => ended.resolve(e) };
  if (next) cell.arm();
  const started = performance.now();
  cell.stream.write(message({ files: payloadFiles(job), payload: JSON.stringify({ ...job.payload, key }), next }));
  const clock = startJobClock(job.limits.timeout_ms, () => harness, () => {
    timedOut = true;
    kill();
  }, () => {
    starved = true;
    kill();
  });
  const exit = await Promise.race([ended.promise, cell.exit.then(() => null, () => null)]).finally(() => {
    clock.stop();
    tests.stop();
    signal?.removeEventListener('abort', interrupt);
  });
  cell.job = null;
  cell.served++;
  if (interrupted) throw new EvigradeError('SANDBOX_FAILED', 'the job was interrupted by the grader');
  if (starved) throw starvedError(job.limits.timeout_ms);
  if (exit?.why) throw new EvigradeError('SANDBOX_FAILED', `docker: ${exit.why}`);
  const memoryLimitHit = await cgroup.memoryLimitHit().catch(() => false);
  const pidsLimitHit = await cgroup.pidsLimitHit().catch(() => false);
  const testTimeout = tests.expired();
  const killed = timedOut || testTimeout !== null || memoryLimitHit;
  // As Docker reports a one-job container's end: the harness's exit code, 128 + a signal's number, 137 once killed
  // (by us, or from outside: a cell that dies takes only this job, which the run then treats as a one-job container
  // killed under it — the tests it had not reported resume in a new cell).
  const status = exit === null ? 137 : (exit.code ?? 128 + signalNumber(exit.signal ?? 'SIGKILL'));
  const raw: RawRun = {
    frames: out.parser.frames,
    rejectedFrames: out.parser.rejected,
    exitCode: killed ? null : status,
    signal: killed ? 'SIGKILL' : null,
    timedOut,
    testTimeout,
    outputLimitHit: out.limit,
    memoryLimitHit,
    pidsLimitHit,
    stdout: Buffer.concat(out.stdout).toString('utf8'),
    stderr: Buffer.concat(out.stderr).toString('utf8'),
    wallMs: Math.round(performance.now() - started),
  };
  return { raw, reusable: exit !== null && !stopped };
}
