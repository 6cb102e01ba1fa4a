import { spawn } from 'node:child_process';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { EvigradeError } from '../../domain/errors.js';
import { sha256 } from '../../util/hash.js';
import { isAlive } from '../../util/pid.js';
import { createPidsCgroup } from './cgroup.js';
import { exists, place, SANDBOX_NODE, SANDBOX_ROOT, sharedLibraries } from './rootfs.js';
import type { SandboxJob } from '../../domain/sandbox.js';
import { JOB_ENV, type Availability, type BackendDef } from './types.js';

const LABEL = 'evigrade.sandbox';
const OWNER = 'evigrade.owner';
const MB = 1024 * 1024;

export const dockerDef: BackendDef = {
  id: 'docker',
  isolates: true,
  ownHostUid: false,
  needsRootTree: false,
  // Its jobs see the image's paths: a JavaScript job starts from the harness's start-up snapshot, bound read-only (registry.ts).
  hostPaths: false,
  pythonForks: {
    ok: false,
    reason:
      "a job's container is made by dockerd, in namespaces only a host process with CAP_SYS_ADMIN could join, and Docker's seccomp profile refuses setns inside it; containers are already started ahead, one per job",
  },
  description:
    'Docker: containers from a locally imported image (node + harness only), each serving up to sandbox.docker_cell jobs in turn (a root runner with ' +
    'SETUID/SETGID/KILL kills every process, empties /tmp and /job/sub and proves them back to their first state between jobs; each job in memory and ' +
    'pids cgroups of its own with its exact limits), or one job each with docker_cell 1; never privileged, network none, SysV IPC, POSIX queues and ' +
    'TIME_WAIT off, ' +
    'all capabilities dropped (the harness, before any student code, writes the submission\'s files into a root-owned tmpfs from its payload and drops ' +
    'to uid 65534, which clears the two it started with), no-new-privileges, read-only root, size-capped /tmp tmpfs, no /dev/shm (IpcMode none), memory = ' +
    'swap limit, pids (refused forks recorded in a pids cgroup of the grader\'s, as on the other backends), CPU and ulimits (nofile, fsize, core); results ' +
    'read from the attached stream.',
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

/** The runner of a Docker cell (docker-cell.ts), in every image; its source sits beside the harness's directory. */
export const CELL_RUNNER = '/evigrade/cell.cjs';
const cellRunnerSource = (harnessDir: string): string => join(harnessDir, '..', 'cell', 'runner.cjs');

/**
 * What an image holds beyond its job root: the cell runner, and for a root without node (Python's), node and the
 * libraries it needs that the root lacks. Kept out of the process backends' roots, which never run the runner.
 */
async function imageExtras(rootfs: string, harnessDir: string, runnerHash: string): Promise<{ dir: string; files: string[] }> {
  const dir = `${rootfs}-docker-${runnerHash.slice(0, 12)}`;
  const files = [CELL_RUNNER];
  if (!(await exists(join(rootfs, SANDBOX_NODE)))) {
    files.push(SANDBOX_NODE);
    for (const lib of await sharedLibraries(process.execPath)) if (!(await exists(join(rootfs, lib)))) files.push(lib);
  }
  // Files only, no directory entries: the engine refuses an archive naming a path twice, and the root has their folders.
  const listed = files.map((f) => `.${f}`);
  if (await exists(dir)) return { dir, files: listed };
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true, mode: 0o755 });
  for (const f of files) await place(f === CELL_RUNNER ? cellRunnerSource(harnessDir) : f === SANDBOX_NODE ? process.execPath : f, join(tmp, f), 0o644);
  await rename(tmp, dir).catch(() => rm(tmp, { recursive: true, force: true }));
  return { dir, files: listed };
}

/** Imports the job root file system as an image tagged by its content hash (no registry involved). */
export async function ensureImage(rootfs: string, harnessDir: string): Promise<string> {
  const runner = sha256(await readFile(cellRunnerSource(harnessDir)));
  const tag = `evigrade-sandbox:${sha256((await readFile(`${harnessDir}/harness.cjs`)).toString('base64') + rootfs.split('rootfs-')[1] + runner).slice(0, 16)}`;
  const docker = await engine();
  const images = await docker.listImages({ filters: { reference: [tag] } });
  if (images.length > 0) return tag;
  const extras = await imageExtras(rootfs, harnessDir, runner);
  const tar = spawn('tar', ['-C', rootfs, '-c', '.', '-C', extras.dir, '--no-recursion', ...extras.files], { stdio: ['ignore', 'pipe', 'ignore'], env: { PATH: '/usr/bin:/bin' } });
  const [repo, version] = tag.split(':') as [string, string];
  const out = await docker.importImage(tar.stdout as Readable, { repo, tag: version });
  await new Promise<void>((resolve, reject) => docker.modem.followProgress(out, (err: Error | null) => (err ? reject(err) : resolve())));
  return tag;
}

/** A file of the grader's bound read-only into a job's container at `target` (its path inside the image's root). */
export interface HostFile {
  readonly source: string;
  readonly target: string;
}

/** What a job's container gets from the grader's host beside the image: files made after it, and where its cgroups go. */
export interface ContainerHost {
  readonly files?: readonly HostFile[];
  /** null or absent: Docker's default parent (`/docker` with the cgroupfs driver). */
  readonly cgroupParent?: string | null;
}

const subKb = (l: SandboxJob['limits']): number => Math.ceil(l.max_bytes / 1024) + 8 * l.max_files + 64;

/**
 * A job's container. It starts as root with CAP_SETUID/CAP_SETGID only, because its harness writes the
 * submission's files (from the payload) into the root-owned /job/sub tmpfs and then drops to 65534 for good,
 * before any student code (sandbox/harness/deliver.cjs, sandbox/python/boot.py): started ahead, it knows
 * nothing of the submission until then, and the job cannot change its own files.
 */
export function containerConfig(image: string, job: SandboxJob, program: readonly string[], host: ContainerHost = {}): Docker.ContainerCreateOptions {
  const l = job.limits;
  const fsize = l.file_size_kb * 1024;
  return {
    Image: image,
    Cmd: [...program],
    User: '0:0',
    WorkingDir: SANDBOX_ROOT,
    Env: [...Object.entries(JOB_ENV).map(([k, v]) => `${k}=${v}`), 'EVIGRADE_FRAMES_FD=2'],
    OpenStdin: true, StdinOnce: true, AttachStdin: true, AttachStdout: true, AttachStderr: true, Tty: false,
    NetworkDisabled: true,
    Labels: { [LABEL]: '1', [OWNER]: String(process.pid) },
    HostConfig: {
      NetworkMode: 'none', Privileged: false, CapDrop: ['ALL'], CapAdd: ['SETUID', 'SETGID'], SecurityOpt: ['no-new-privileges'], ReadonlyRootfs: true,
      // No /dev/shm (Docker's is a writable 64 MB tmpfs outside the /tmp cap); /dev itself is root's, read-only to the job.
      IpcMode: 'none',
      // Kernel objects a process leaves behind when it dies, switched off in the container's own IPC and network
      // namespaces: SysV shared memory, message queues and semaphores, POSIX message queues (/dev/mqueue was writable,
      // outside the /tmp cap), and TCP sockets lingering in TIME_WAIT (a port the next job in a cell could not bind).
      Sysctls: { 'kernel.shmmni': '0', 'kernel.msgmni': '0', 'kernel.sem': '0 0 0 0', 'fs.mqueue.queues_max': '0', 'net.ipv4.tcp_max_tw_buckets': '0' },
      // The submission's files: root's, read-only to the job; room for max_bytes plus a page per file and directory.
      Tmpfs: { '/tmp': `rw,nosuid,nodev,noexec,size=${l.tmp_kb}k,mode=1777`, [SANDBOX_ROOT]: `rw,nosuid,nodev,noexec,size=${subKb(l)}k,mode=0755` },
      Memory: l.memory_mb * MB, MemorySwap: l.memory_mb * MB, PidsLimit: l.pids, NanoCpus: 1_000_000_000,
      Ulimits: [{ Name: 'nofile', Soft: l.open_files, Hard: l.open_files }, { Name: 'fsize', Soft: fsize, Hard: fsize }, { Name: 'core', Soft: 0, Hard: 0 }],
      // Files the grader made for the image's root after importing it (the harness's start-up snapshot): read-only.
      Mounts: (host.files ?? []).map((f) => ({ Type: 'bind' as const, Source: f.source, Target: f.target, ReadOnly: true })),
      AutoRemove: false,
      ...(host.cgroupParent ? { CgroupParent: host.cgroupParent } : {}),
    },
  };
}

/**
 * Where a job's container's cgroups go: at the root of each hierarchy, where Docker's default `/docker` sits, so each
 * container weighs as one process, as a bwrap job's process does. Under `/docker` every container of the host shares
 * one cgroup whose CPU weight is that of a single process at the root: on a machine with twenty runnable processes,
 * all the containers of a class together got about a twenty-first of the CPU while each bwrap job competed as a
 * process of its own (a class of 24 under Docker took 3 s a job longer than under bwrap at load 20; bench/README.md,
 * issue 36's Docker pass). Not beside the grader's own cgroup: a grader that runs in a container of its own would put
 * every job's memory into its own limit. Each container's cgroup still carries its limits (memory, pids, one CPU).
 * Only with the cgroupfs driver on cgroup v1, where a parent is a path in every hierarchy; elsewhere (systemd's driver
 * names slices; cgroup v2, untested here) Docker's default stays: null.
 */
export async function jobCgroupParent(): Promise<string | null> {
  const info = (await (await engine()).info()) as { CgroupDriver?: string; CgroupVersion?: string };
  return info.CgroupDriver === 'cgroupfs' && info.CgroupVersion === '1' ? '/' : null;
}

/** A container's cgroup path under each v1 hierarchy (cgroupfs driver: `<parent>/<id>`). */
export const containerCgroup = (parent: string | null, id: string): string => `${(parent ?? '/docker').replace(/\/+$/, '')}/${id}`;

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

/** Our pids cgroups of containers, removed once read (or with their container). */
const pidGroups = new Map<string, { remove(): Promise<void> }>();
export const releasePids = async (id: string): Promise<void> => {
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
export async function confinePids(c: Docker.Container, pids: number, cgroup: string): Promise<{ pid: number; group: { pidsLimitHit(): Promise<boolean> } | null }> {
  const pid = await c.inspect().then((i) => i.State.Pid, () => 0);
  const group = await createPidsCgroup(`${process.pid}-docker-${c.id.slice(0, 16)}`, pids).catch(() => null);
  if (!group) return { pid, group: null };
  pidGroups.set(c.id, group);
  // Docker's own pids cgroup lists the process (cgroupfs driver; root's, unwritable to the job); else the engine's pid.
  const listed = (await readFile(`/sys/fs/cgroup/pids${cgroup}/cgroup.procs`, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
  for (const p of listed.length > 0 ? listed : [pid]) if (!(p > 0) || !(await group.add(p).then(() => true, () => false))) return { pid, group: null };
  return { pid, group };
}

export const dockerError = (e: unknown): EvigradeError =>
  new EvigradeError('SANDBOX_FAILED', `docker: ${(e as Error).message.split('\n')[0]}`);
