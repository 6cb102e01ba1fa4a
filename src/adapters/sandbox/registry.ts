import { SANDBOX_CHOICES } from '../../domain/choices.js';
import { DOCKER_CELL_JOBS } from '../../domain/config.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { EvigradeError, isEvigradeError } from '../../domain/errors.js';

import { bwrap } from './bwrap.js';
import { cacheDir } from '../../runtime/cache.js';
import { cgroupVersion, sweepStaleCgroups } from './cgroup.js';
import { makeWorkDir, sweepStaleWorkDirs, workParent } from './work-dirs.js';
import { PYTHON_PROGRAM, programOf, runInSandbox } from './process-runner.js';
import { dockerDef, dockerError, ensureImage, jobCgroupParent, sweepDocker, type HostFile } from './docker.js';
import { createDockerRunner } from './docker-pool.js';
import { createCellRunner } from './docker-cell.js';
import { createPythonForks } from './python-forks.js';
import { ensurePythonRootfs } from './python-rootfs.js';
import { ensureRootfs, SANDBOX_HARNESS, SANDBOX_HARNESS_DIR } from './rootfs.js';
import type { Runtime } from '../../domain/languages.js';
import type { RawRun, SandboxJob } from '../../domain/sandbox.js';
import type { Availability, BackendDef, BackendId } from './types.js';
import { unsafe } from './unsafe.js';
import { unshare } from './unshare.js';

/** Every backend, keyed by id; adding one is one file and one line. */
export const BACKENDS = { docker: dockerDef, bwrap, unshare, unsafe } satisfies Record<BackendId, BackendDef>;
export type ProcessBackendId = keyof typeof BACKENDS;
export { SANDBOX_CHOICES };
export type SandboxChoice = (typeof SANDBOX_CHOICES)[number] | 'unsafe';
/**
 * `auto` (docs/sandboxes.md): the strongest isolation tier available, and within it the backend that meets the
 * per-job cost target (≤ 150 ms wall and a few ms of CPU over a bare run). bubblewrap and Docker share the top tier;
 * Docker, even with containers started ahead, spends ≈ 0.15 s of CPU a job in its engine (a class: ≈ +0.23 s of CPU a job over bwrap), so it is
 * chosen only without bubblewrap; unshare (the host user namespace) comes last.
 */
const AUTO_ORDER: ProcessBackendId[] = ['bwrap', 'docker', 'unshare'];

export interface Sandbox {
  readonly backend: BackendDef;
  run(job: SandboxJob): Promise<RawRun>;
  /** About `jobs` jobs will follow (a batch's submissions, one job each): what is prepared ahead stops there. */
  expect?(jobs: number): void;
  close(): void;
}

const availabilityCache = new Map<string, Promise<Availability>>();
export const availability = (id: ProcessBackendId): Promise<Availability> => {
  if (!availabilityCache.has(id)) availabilityCache.set(id, BACKENDS[id].available());
  return availabilityCache.get(id) as Promise<Availability>;
};

export async function chooseBackend(choice: SandboxChoice): Promise<BackendDef> {
  if (choice !== 'auto') {
    const a = await availability(choice);
    if (!a.ok) throw new EvigradeError('SANDBOX_UNAVAILABLE', `sandbox backend "${choice}" is not available: ${a.reason}`);
    return BACKENDS[choice];
  }
  const reasons: string[] = [];
  for (const id of AUTO_ORDER) {
    const a = await availability(id);
    if (a.ok) return BACKENDS[id];
    reasons.push(`${id}: ${a.reason}`);
  }
  throw new EvigradeError(
    'SANDBOX_UNAVAILABLE',
    `no sandbox backend that can isolate is available (${reasons.join('; ')}). Install bubblewrap (apt-get install bubblewrap), ` +
      'or run as root for the unshare backend. To run trusted code without isolation, pass --unsafe-no-sandbox.',
  );
}

export interface SandboxOptions {
  /** Docker: containers started ahead of need per limit set (each serves one job only); 0 starts one per job. */
  readonly dockerPool?: number;
  /** Docker: jobs one container (a cell) serves in turn (docker-cell.ts; default DOCKER_CELL_JOBS); 1: a container per job. */
  readonly dockerCell?: number;
  /** Aborted on Ctrl-C or shutdown: the sandbox kills every job it runs (their runs reject). */
  readonly signal?: AbortSignal;
  /** Python jobs forked from a pre-imported test process (sandbox.python_fork_server), where the backend allows it. */
  readonly pythonForkServer?: boolean;
}

/** Opens a sandbox: picks the backend, builds the job root file system in a private work dir. */
export async function openSandbox(choice: SandboxChoice, harnessDir: string, opts: SandboxOptions = {}): Promise<Sandbox> {
  const backend = await chooseBackend(choice);
  await sweepStaleCgroups().catch(() => 0);
  const parent = await workParent(backend.needsRootTree, cacheDir('work'));
  // Left by killed graders; in the background: grading does not wait for it.
  void sweepStaleWorkDirs(parent).catch(() => 0);
  const base = makeWorkDir(parent);
  const cleanup = (): void => rmSync(base, { recursive: true, force: true });
  process.once('exit', cleanup);
  const node = await ensureRootfs(base, harnessDir, { devices: backend.needsRootTree });
  let python: Promise<string> | null = null;
  // The Python root is looked for on the first Python job only (JavaScript graders never pay for it), in the grader's
  // cache directory: made once, kept between runs (python-rootfs.ts).
  const rootfs = (runtime: Runtime): Promise<string> =>
    runtime === 'node' ? Promise.resolve(node) : (python ??= ensurePythonRootfs(cacheDir('python'), harnessDir));
  if (backend.id === 'docker') return openDocker(rootfs, harnessDir, cleanup, { pool: opts.dockerPool ?? 2, cell: opts.dockerCell ?? DOCKER_CELL_JOBS }, opts.signal);
  const pythonForks = opts.pythonForkServer && backend.pythonForks.ok ? createPythonForks(() => rootfs('python')) : undefined;
  return {
    backend,
    run: (job) => runInSandbox(backend, { base, rootfs, ...(opts.signal ? { signal: opts.signal } : {}), ...(pythonForks ? { pythonForks } : {}) }, job),
    close: () => {
      pythonForks?.close();
      process.removeListener('exit', cleanup);
      cleanup();
    },
  };
}

/**
 * A Docker job's argv, and the files it starts from that are not in the image. A JavaScript job starts from the
 * harness's start-up snapshot as a bwrap job does (programOf: made once per root file system and node flags, kept in
 * the grader's cache), else from boot.cjs through its code cache: either file is made after the image was imported,
 * for the job's flags, so it is bound read-only at the path the program names. Starting from boot.cjs without either
 * cost every container ≈ 0.15 s more CPU (the whole bundle compiled, lockdown(), Jest's packages evaluated:
 * bench/README.md, issue 36's Docker pass).
 */
async function dockerProgram(job: SandboxJob, rootfs: (runtime: Runtime) => Promise<string>): Promise<{ program: string[]; files: HostFile[] }> {
  if (job.runtime === 'python') return { program: [...PYTHON_PROGRAM], files: [] };
  const root = await rootfs('node');
  const program = await programOf(job, root, dockerDef);
  const made = program.filter((a) => a.startsWith(`${SANDBOX_HARNESS_DIR}/`) && a !== SANDBOX_HARNESS);
  return { program, files: made.map((target) => ({ source: join(root, target), target })) };
}

/** Docker: the same root file system as an image; containers started ahead, each used once (docker-pool.ts). */
async function openDocker(rootfs: (runtime: Runtime) => Promise<string>, harnessDir: string, cleanup: () => void, sizes: { pool: number; cell: number }, signal?: AbortSignal): Promise<Sandbox> {
  await sweepDocker().catch(() => 0);
  const images = new Map<Runtime, Promise<string>>();
  const imageFor = (runtime: Runtime): Promise<string> => {
    if (!images.has(runtime)) images.set(runtime, rootfs(runtime).then((dir) => ensureImage(dir, harnessDir)));
    return images.get(runtime) as Promise<string>;
  };
  await imageFor('node').catch((e) => {
    throw dockerError(e);
  });
  const cgroupParent = await jobCgroupParent().catch(() => null);
  // Cells hold each job's limits in cgroups of the grader's own: without writable cgroups, a container per job.
  const cells = sizes.cell > 1 && (await cgroupVersion()) !== null;
  const runner = cells
    ? createCellRunner(imageFor, { perCell: sizes.cell, cgroupParent, ...(signal ? { signal } : {}) })
    : createDockerRunner(imageFor, { pool: sizes.pool, cgroupParent, ...(signal ? { signal } : {}) });
  return {
    backend: dockerDef,
    expect: (jobs) => runner.expect(jobs),
    run: (job) =>
      dockerProgram(job, rootfs)
        .then(({ program, files }) => runner.run(job, program, files))
        .catch((e) => {
          throw isEvigradeError(e) ? e : dockerError(e);
        }),
    close: () => {
      void runner.close();
      process.removeListener('exit', cleanup);
      cleanup();
    },
  };
}
