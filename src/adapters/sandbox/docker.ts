import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import type Docker from 'dockerode';
import { EvigradeError } from '../../domain/errors.js';
import type { SubmissionFile } from '../../domain/submission.js';
import { sha256 } from '../../util/hash.js';
import { isAlive } from '../../util/pid.js';
import { createPidsCgroup } from './cgroup.js';
import { createFrameParser } from './frames.js';
import { startJobClock, starvedError } from './job-clock.js';
import { SANDBOX_ROOT } from './rootfs.js';
import { JOB_ENV, type Availability, type BackendDef, type RawRun, type SandboxJob } from './types.js';

const LABEL = 'evigrade.sandbox';
const OWNER = 'evigrade.owner';
const MB = 1024 * 1024;

export const dockerDef: BackendDef = {
  id: 'docker',
  isolates: true,
  ownHostUid: false,
  needsRootTree: false,
  description:
    'Docker: a fresh container per job from a locally imported image (node + harness only); never privileged, network none, all capabilities ' +
    'dropped, no-new-privileges, uid 65534, read-only root, size-capped /tmp tmpfs, no /dev/shm (IpcMode none), memory = swap limit, pids (refused forks ' +
    'recorded in a pids cgroup of the grader\'s, as on the other backends), CPU and ulimits (nofile, fsize, core); ' +
    'files copied in as a tar stream; results read from the attached stream.',
  available: async () => dockerAvailable(),
  command: () => {
    throw new Error('the docker backend runs through the engine API, not a command');
  },
};

// dockerode (and the gRPC and SSH stacks under it) is loaded on the first call to the engine: choosing bwrap or
// unshare, or a command without a sandbox, never pays for it.
let engineP: Promise<Docker> | null = null;
export const engine = (): Promise<Docker> => (engineP ??= import('dockerode').then((m) => new m.default()));

export async function dockerAvailable(): Promise<Availability> {
  try {
    await (await engine()).ping();
    return { ok: true, reason: 'the Docker engine answers' };
  } catch (e) {
    return { ok: false, reason: `no Docker engine answers on /var/run/docker.sock (${(e as Error).message.split('\n')[0]}); install docker.io and start dockerd` };
  }
}

/** Imports the job root file system as an image tagged by its content hash (no registry involved). */
export async function ensureImage(rootfs: string, harnessDir: string): Promise<string> {
  const tag = `evigrade-sandbox:${sha256((await readFile(`${harnessDir}/harness.cjs`)).toString('base64') + rootfs.split('rootfs-')[1]).slice(0, 16)}`;
  const docker = await engine();
  const images = await docker.listImages({ filters: { reference: [tag] } });
  if (images.length > 0) return tag;
  const tar = spawn('tar', ['-C', rootfs, '-c', '.'], { stdio: ['ignore', 'pipe', 'ignore'], env: { PATH: '/usr/bin:/bin' } });
  const [repo, version] = tag.split(':') as [string, string];
  const out = await docker.importImage(tar.stdout as Readable, { repo, tag: version });
  await new Promise<void>((resolve, reject) => docker.modem.followProgress(out, (err: Error | null) => (err ? reject(err) : resolve())));
  return tag;
}

/** The submission as a tar stream: root-owned, read-only to the job. */
async function tarOf(files: readonly SubmissionFile[]): Promise<Readable> {
  const { pack } = await import('tar-stream'); // like dockerode: loaded only when Docker runs a job
  const p = pack();
  const dirs = new Set<string>();
  for (const f of files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      if (!dirs.has(d)) {
        dirs.add(d);
        p.entry({ name: d, type: 'directory', mode: 0o755, uid: 0, gid: 0 });
      }
    }
    p.entry({ name: f.path, mode: 0o644, uid: 0, gid: 0 }, f.content);
  }
  p.finalize();
  return p as unknown as Readable;
}

function containerConfig(image: string, job: SandboxJob, program: readonly string[]): Docker.ContainerCreateOptions {
  const l = job.limits;
  const fsize = l.file_size_kb * 1024;
  return {
    Image: image,
    Cmd: [...program],
    User: '65534:65534',
    WorkingDir: SANDBOX_ROOT,
    Env: [...Object.entries(JOB_ENV).map(([k, v]) => `${k}=${v}`), 'EVIGRADE_FRAMES_FD=2'],
    OpenStdin: true, StdinOnce: true, AttachStdin: true, AttachStdout: true, AttachStderr: true, Tty: false,
    NetworkDisabled: true,
    Labels: { [LABEL]: '1', [OWNER]: String(process.pid) },
    Volumes: { [SANDBOX_ROOT]: {} },
    HostConfig: {
      NetworkMode: 'none', Privileged: false, CapDrop: ['ALL'], SecurityOpt: ['no-new-privileges'], ReadonlyRootfs: true,
      // No /dev/shm (Docker's is a writable 64 MB tmpfs outside the /tmp cap); /dev itself is root's, read-only to the job.
      IpcMode: 'none',
      Tmpfs: { "/tmp": `rw,nosuid,nodev,noexec,size=${l.tmp_kb}k,mode=1777` },
      Memory: l.memory_mb * MB, MemorySwap: l.memory_mb * MB, PidsLimit: l.pids, NanoCpus: 1_000_000_000,
      Ulimits: [{ Name: 'nofile', Soft: l.open_files, Hard: l.open_files }, { Name: 'fsize', Soft: fsize, Hard: fsize }, { Name: 'core', Soft: 0, Hard: 0 }],
      AutoRemove: false,
    },
  };
}

export interface DockerRunner {
  /** Runs the job's harness (`program`: its argv inside the image). */
  run(job: SandboxJob, program: readonly string[]): Promise<RawRun>;
  /** Removes every container this process created (also on SIGINT/SIGTERM/exit). */
  close(): Promise<void>;
}

/** Removes containers left by grader processes that no longer exist. */
export async function sweepDocker(): Promise<number> {
  const docker = await engine();
  const list = await docker.listContainers({ all: true, filters: { label: [LABEL] } });
  let removed = 0;
  for (const c of list) {
    const owner = Number(c.Labels[OWNER]);
    if (owner === process.pid || (owner > 0 && isAlive(owner))) continue;
    await docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => undefined);
    removed++;
  }
  return removed;
}

interface Ready {
  readonly c: Docker.Container;
  readonly stream: NodeJS.ReadWriteStream;
}

export function createDockerRunner(imageFor: (runtime: SandboxJob['runtime']) => Promise<string>, poolSize: number, signal?: AbortSignal): DockerRunner {
  const live = new Set<string>();
  // Warm pool: containers created (and attached) ahead for the last limits seen; each serves one job only.
  const pool: { key: string; c: Promise<Ready> }[] = [];
  const create = async (config: Docker.ContainerCreateOptions): Promise<Ready> => {
    const c = await (await engine()).createContainer(config);
    live.add(c.id);
    const stream = await c.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true });
    return { c, stream };
  };
  const take = (key: string, config: Docker.ContainerCreateOptions): Promise<Ready> => {
    const i = pool.findIndex((p) => p.key === key);
    const got = i >= 0 ? (pool.splice(i, 1)[0] as { c: Promise<Ready> }).c : create(config);
    while (pool.filter((p) => p.key === key).length < poolSize) pool.push({ key, c: create(config) });
    return got;
  };
  const destroy = async (id: string): Promise<void> => {
    live.delete(id);
    await (await engine()).getContainer(id).remove({ force: true, v: true }).catch(() => undefined);
    await releasePids(id); // a run that threw before reading its pids cgroup
  };
  const removing = new Set<Promise<void>>();
  const closeAll = async (): Promise<void> => {
    // Unused pooled containers hold an attached socket each: close those first, or the process never exits.
    const waiting = pool.splice(0).map((p) => p.c.then((r) => (r.stream as unknown as { destroy(): void }).destroy(), () => undefined));
    await Promise.all(waiting);
    await Promise.all([...[...live].map(destroy), ...removing]);
  };

  return {
    async run(job, program) {
      const config = containerConfig(await imageFor(job.runtime), job, program);
      const key = sha256(JSON.stringify(config)).slice(0, 12);
      const { c, stream } = await take(key, config);
      try {
        return await execute(c, stream, job, signal);
      } finally {
        // Removal is off the job's critical path; close() still waits for every container to go.
        const gone: Promise<void> = destroy(c.id).finally(() => removing.delete(gone));
        removing.add(gone);
      }
    },
    close: closeAll,
  };
}

async function execute(c: Docker.Container, stream: NodeJS.ReadWriteStream, job: SandboxJob, signal?: AbortSignal): Promise<RawRun> {
  await c.putArchive(await tarOf(job.files), { path: SANDBOX_ROOT });
  const key = randomBytes(32).toString('hex');
  const parser = createFrameParser(key);
  const cap = job.limits.output_kb * 1024;
  const killAt = 2 * cap + 64 * 1024;
  const out = { stdout: [] as Buffer[], stderr: [] as Buffer[], bytes: 0, limit: false };
  const started = performance.now();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  c.modem.demuxStream(stream, stdout, stderr);
  let timedOut = false;
  let interrupted = false;
  const kill = (): void => void c.kill().catch(() => undefined);
  const interrupt = (): void => {
    interrupted = true;
    kill();
  };
  signal?.addEventListener('abort', interrupt, { once: true });
  if (signal?.aborted) interrupt();
  const keep = (which: 'stdout' | 'stderr', chunk: Buffer): void => {
    if (out.bytes < cap) out[which].push(chunk.subarray(0, cap - out.bytes));
    out.bytes += chunk.length;
    if (out.bytes > killAt && !out.limit) {
      out.limit = true;
      kill();
    }
  };
  stdout.on('data', (b: Buffer) => keep('stdout', b));
  let pending = '';
  stderr.on('data', (b: Buffer) => {
    if (out.limit) return;
    pending += b.toString('utf8');
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.startsWith('{"seq":')) parser.push(line);
      else if (line) keep('stderr', Buffer.from(`${line}\n`));
    }
  });
  await c.start();
  // Before the payload, so before any student code: forks are counted where the record outlives the container.
  const pidsGroup = await confinePids(c, job.limits.pids);
  stream.end(JSON.stringify({ ...job.payload, key }));
  let starved = false;
  // The job's own time, as for the process backends: its container's processes are host processes.
  const clock = startJobClock(job.limits.timeout_ms, () => c.inspect().then((i) => i.State.Pid || null, () => null), () => {
    timedOut = true;
    kill();
  }, () => {
    starved = true;
    kill();
  });
  const ended = new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
  });
  const waited = (await c.wait().finally(() => {
    clock.stop();
    signal?.removeEventListener('abort', interrupt);
  })) as { StatusCode: number };
  // The last frames may still be in flight when wait() returns: let the stream end, briefly.
  await Promise.race([ended, new Promise((r) => setTimeout(r, 500))]);
  (stream as unknown as { destroy(): void }).destroy();
  if (interrupted) throw new EvigradeError('SANDBOX_FAILED', 'the job was interrupted by the grader');
  if (starved) throw starvedError(job.limits.timeout_ms);
  // A clean exit cannot be an OOM kill: skip the extra round trip.
  const info = waited.StatusCode === 0 && !timedOut ? { State: { OOMKilled: false } } : await c.inspect();
  const pids = await readFile(`/sys/fs/cgroup/pids/docker/${c.id}/pids.events`, 'utf8').catch(() => '');
  const pidsLimitHit = /max\s+[1-9]/.test(pids) || ((await pidsGroup?.pidsLimitHit().catch(() => false)) ?? false);
  await releasePids(c.id);
  return {
    frames: parser.frames,
    rejectedFrames: parser.rejected,
    exitCode: timedOut || info.State.OOMKilled ? null : waited.StatusCode,
    signal: timedOut || info.State.OOMKilled ? 'SIGKILL' : null,
    timedOut,
    outputLimitHit: out.limit,
    memoryLimitHit: info.State.OOMKilled === true,
    pidsLimitHit,
    stdout: Buffer.concat(out.stdout).toString('utf8'),
    stderr: Buffer.concat(out.stderr).toString('utf8'),
    wallMs: Math.round(performance.now() - started),
  };
}

/** Our pids cgroups of containers, removed once read (or with their container). */
const pidGroups = new Map<string, { remove(): Promise<void> }>();
const releasePids = async (id: string): Promise<void> => {
  const group = pidGroups.get(id);
  pidGroups.delete(id);
  await group?.remove().catch(() => undefined);
};

/**
 * Moves the container's first process (the harness, still waiting for its payload) into a pids cgroup of
 * ours with the same limit as Docker's. Docker deletes the container's cgroup when it stops, before
 * its pids.events (the count of refused forks) can be read; ours is read after the run, then removed.
 * Only the pids hierarchy is ours (cgroup v1): memory and CPU stay Docker's. Without it, Docker's
 * PidsLimit still binds and only the record may be lost.
 */
async function confinePids(c: Docker.Container, pids: number): Promise<{ pidsLimitHit(): Promise<boolean> } | null> {
  const group = await createPidsCgroup(`${process.pid}-docker-${c.id.slice(0, 16)}`, pids).catch(() => null);
  if (!group) return null;
  pidGroups.set(c.id, group);
  // Docker's own pids cgroup lists the process (cgroupfs driver; root's, unwritable to the job); else ask the engine.
  const listed = (await readFile(`/sys/fs/cgroup/pids/docker/${c.id}/cgroup.procs`, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
  const procs = listed.length > 0 ? listed : [await c.inspect().then((i) => i.State.Pid, () => 0)];
  for (const pid of procs) if (!(pid > 0) || !(await group.add(pid).then(() => true, () => false))) return null;
  return group;
}

export const dockerError = (e: unknown): EvigradeError =>
  new EvigradeError('SANDBOX_FAILED', `docker: ${(e as Error).message.split('\n')[0]}`);
