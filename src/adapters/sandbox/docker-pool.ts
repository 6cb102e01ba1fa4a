// Docker jobs on containers started ahead. Container start (create, attach, start, the pids cgroup) and the
// harness's own start (node or python loaded, the harness compiled) cost ≈ 0.15–0.25 s through the engine;
// here they happen before a job needs the container, so a job pays one write to the container's stdin (its
// payload, the submission's files inside it) and the wait for its exit. Each container serves one job and
// is then removed: nothing a submission leaves can reach another. Until its payload arrives a container
// knows nothing of the submission: its configuration holds only the rubric's limits.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type Docker from 'dockerode';
import { EvigradeError } from '../../domain/errors.js';
import { sha256 } from '../../util/hash.js';
import { confinePids, containerCgroup, containerConfig, engine, releasePids, type HostFile } from './docker.js';
import { createFrameParser, type FrameParser } from './frames.js';
import { startJobClock, starvedError } from './job-clock.js';
import { watchTests } from './test-watch.js';
import type { Frame, RawRun, SandboxJob } from '../../domain/sandbox.js';

export interface DockerRunner {
  /** Runs the job's harness (`program`: its argv inside the image; `files`: bound read-only into its container). */
  run(job: SandboxJob, program: readonly string[], files?: readonly HostFile[]): Promise<RawRun>;
  /** About `jobs` more jobs will come (a batch's submissions): no container is started ahead beyond them. */
  expect(jobs: number): void;
  /** Removes every container this process created (also on SIGINT/SIGTERM/exit). */
  close(): Promise<void>;
}

/** What a started container has said so far (before its job, only the harness's `hello`). */
interface Output {
  readonly parser: FrameParser;
  readonly stdout: Buffer[];
  readonly stderr: Buffer[];
  bytes: number;
  /** Past the output backstop: the container is killed and its results no longer read. */
  limit: boolean;
  /** Called (once) when output passes the backstop. */
  onFlood: () => void;
  /** Each authenticated frame as it arrives (the job's per-test watch). */
  onFrame: (f: Frame) => void;
  /** The job's output cap; counting starts when the job takes the container. */
  cap: number;
}

/** A container started and waiting on stdin for its one payload. */
interface Started {
  readonly c: Docker.Container;
  readonly stream: NodeJS.ReadWriteStream;
  readonly key: string;
  readonly out: Output;
  /** The container's first process on the host (the harness), for the job clock. */
  readonly pid: number;
  /** Settles with the exit status once the container stops. */
  readonly exit: Promise<{ StatusCode: number }>;
  exited: boolean;
  /** The attach stream ended (every frame read). */
  readonly ended: Promise<void>;
  readonly pids: { pidsLimitHit(): Promise<boolean> } | null;
  /** Its cgroup path in each v1 hierarchy. */
  readonly cgroup: string;
}

function collect(stream: NodeJS.ReadWriteStream, c: Docker.Container, key: string): Output {
  const out: Output = { parser: createFrameParser(key, (f) => out.onFrame(f)), stdout: [], stderr: [], bytes: 0, limit: false, onFlood: () => undefined, onFrame: () => undefined, cap: 64 * 1024 };
  const keep = (which: 'stdout' | 'stderr', chunk: Buffer): void => {
    if (out.bytes < out.cap) out[which].push(chunk.subarray(0, out.cap - out.bytes));
    out.bytes += chunk.length;
    if (out.bytes > 2 * out.cap + 64 * 1024 && !out.limit) {
      out.limit = true;
      out.onFlood();
    }
  };
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  c.modem.demuxStream(stream, stdout, stderr);
  stdout.on('data', (b: Buffer) => keep('stdout', b));
  let pending = '';
  // A chunk may end inside a UTF-8 sequence: decoded chunk by chunk, a frame split there would fail its HMAC.
  const utf8 = new StringDecoder('utf8');
  // Frames travel on stderr (Docker passes no extra fd), each on a line of its own.
  stderr.on('data', (b: Buffer) => {
    if (out.limit) return;
    pending += utf8.write(b);
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.startsWith('{"seq":')) out.parser.push(line);
      else if (line) keep('stderr', Buffer.from(`${line}\n`));
    }
  });
  return out;
}

/** Creates, attaches and starts a container; its harness then waits on stdin. Every fork is counted from here on. */
async function start(config: Docker.ContainerCreateOptions, pidsLimit: number, live: Set<string>): Promise<Started> {
  const c = await (await engine()).createContainer(config);
  live.add(c.id);
  const stream = await c.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true });
  const key = randomBytes(32).toString('hex');
  const out = collect(stream, c, key);
  const ended = new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
  });
  await c.start();
  const exit = c.wait() as Promise<{ StatusCode: number }>;
  const cgroup = containerCgroup(config.HostConfig?.CgroupParent ?? null, c.id);
  const { pid, group } = await confinePids(c, pidsLimit, cgroup);
  const s: Started = { c, stream, key, out, pid, exit, exited: false, ended, pids: group, cgroup };
  void exit.then(() => (s.exited = true), () => (s.exited = true));
  return s;
}

export interface DockerRunnerOptions {
  /** Containers started ahead per configuration (`sandbox.docker_pool`). */
  readonly pool: number;
  readonly signal?: AbortSignal;
  /** Where containers' cgroups go (docker.ts jobCgroupParent); null: Docker's default. */
  readonly cgroupParent: string | null;
}

export function createDockerRunner(imageFor: (runtime: SandboxJob['runtime']) => Promise<string>, opts: DockerRunnerOptions): DockerRunner {
  const { pool: poolSize, signal, cgroupParent } = opts;
  const live = new Set<string>();
  // Containers started ahead, per configuration (the rubric's limits and the runtime): each serves one job.
  const pool: { key: string; s: Promise<Started> }[] = [];
  const removing = new Set<Promise<void>>();
  const destroy = (id: string): void => {
    live.delete(id);
    const gone: Promise<void> = (async () => {
      await (await engine()).getContainer(id).remove({ force: true, v: true }).catch(() => undefined);
      await releasePids(id);
    })().finally(() => removing.delete(gone));
    removing.add(gone);
  };
  const fresh = (config: Docker.ContainerCreateOptions, pids: number): Promise<Started> => {
    const s = start(config, pids, live);
    s.catch(() => undefined); // a failed start is seen by the job that takes it
    return s;
  };
  // Jobs still to come, when the caller knows (a batch announces its submissions; each job counts one off): a
  // container started ahead and never used cost the engine and the machine as much as a used one (≈ 0.25 s of CPU),
  // and the run's end waited for its removal. A submission with more than one job (a resume, a memory group) counts
  // more off than it announced: the last jobs may then start their container on demand, which costs only latency.
  let remaining: number | null = null;
  const take = async (key: string, config: Docker.ContainerCreateOptions, pids: number): Promise<Started> => {
    if (remaining !== null) remaining = Math.max(0, remaining - 1);
    const i = pool.findIndex((p) => p.key === key);
    const got = i >= 0 ? (pool.splice(i, 1)[0] as { s: Promise<Started> }).s : fresh(config, pids);
    while (pool.filter((p) => p.key === key).length < Math.min(poolSize, remaining ?? poolSize)) pool.push({ key, s: fresh(config, pids) });
    const s = await got;
    if (!s.exited) return s;
    // Died while waiting (killed from outside, out of memory at start): never hand a job a dead container.
    destroy(s.c.id);
    return fresh(config, pids);
  };

  return {
    async run(job, program, files = []) {
      const config = containerConfig(await imageFor(job.runtime), job, program, { files, cgroupParent });
      const key = sha256(JSON.stringify(config)).slice(0, 12);
      const s = await take(key, config, job.limits.pids);
      try {
        return await execute(s, job, signal);
      } finally {
        // Removal is off the job's critical path; close() still waits for every container to go.
        destroy(s.c.id);
      }
    },
    expect(jobs) {
      remaining = Math.max(0, jobs);
    },
    async close() {
      // Unused started containers hold an attached socket each: close those first, or the process never exits.
      await Promise.all(pool.splice(0).map((p) => p.s.then((s) => (s.stream as unknown as { destroy(): void }).destroy(), () => undefined)));
      for (const id of [...live]) destroy(id);
      await Promise.all([...removing]);
    },
  };
}

/** The submission's files as the harness's payload carries them (written by it as root, before it drops to 65534). */
const payloadFiles = (job: SandboxJob): { path: string; base64: string }[] =>
  job.files.map((f) => ({ path: f.path, base64: Buffer.from(f.content).toString('base64') }));

async function execute(s: Started, job: SandboxJob, signal?: AbortSignal): Promise<RawRun> {
  const { c, out } = s;
  let timedOut = false;
  let interrupted = false;
  let starved = false;
  const kill = (): void => void c.kill().catch(() => undefined);
  const interrupt = (): void => {
    interrupted = true;
    kill();
  };
  signal?.addEventListener('abort', interrupt, { once: true });
  if (signal?.aborted) interrupt();
  // Output is counted from the container's start (before its payload, only the harness's `hello` frame).
  out.cap = job.limits.output_kb * 1024;
  out.onFlood = kill;
  // Each test's own limit, from outside (a loop that never yields cannot be stopped from inside the job).
  const tests = watchTests(() => s.pid || null, kill);
  out.onFrame = tests.onFrame;
  const started = performance.now();
  s.stream.end(JSON.stringify({ ...job.payload, key: s.key, files: payloadFiles(job) }));
  // The job's own time, as for the process backends: its container's processes are host processes.
  const clock = startJobClock(job.limits.timeout_ms, () => s.pid || null, () => {
    timedOut = true;
    kill();
  }, () => {
    starved = true;
    kill();
  });
  const waited = await s.exit.finally(() => {
    clock.stop();
    tests.stop();
    signal?.removeEventListener('abort', interrupt);
  });
  // The last frames may still be in flight when wait() returns: let the stream end, briefly.
  await Promise.race([s.ended, new Promise((r) => setTimeout(r, 500))]);
  (s.stream as unknown as { destroy(): void }).destroy();
  if (interrupted) throw new EvigradeError('SANDBOX_FAILED', 'the job was interrupted by the grader');
  if (starved) throw starvedError(job.limits.timeout_ms);
  // A clean exit cannot be an OOM kill: skip the extra round trip.
  const info = waited.StatusCode === 0 && !timedOut && tests.expired() === null ? { State: { OOMKilled: false } } : await c.inspect();
  const pids = await readFile(`/sys/fs/cgroup/pids${s.cgroup}/pids.events`, 'utf8').catch(() => '');
  const pidsLimitHit = /max\s+[1-9]/.test(pids) || ((await s.pids?.pidsLimitHit().catch(() => false)) ?? false);
  await releasePids(c.id);
  const testTimeout = tests.expired();
  const killed = timedOut || testTimeout !== null || info.State.OOMKilled === true;
  return {
    frames: out.parser.frames,
    rejectedFrames: out.parser.rejected,
    exitCode: killed ? null : waited.StatusCode,
    signal: killed ? 'SIGKILL' : null,
    timedOut,
    testTimeout,
    outputLimitHit: out.limit,
    memoryLimitHit: info.State.OOMKilled === true,
    pidsLimitHit,
    stdout: Buffer.concat(out.stdout).toString('utf8'),
    stderr: Buffer.concat(out.stderr).toString('utf8'),
    wallMs: Math.round(performance.now() - started),
  };
}
