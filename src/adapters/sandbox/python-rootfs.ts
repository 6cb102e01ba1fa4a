import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { EvigradeError } from '../../domain/errors.js';
import { sha256 } from '../../util/hash.js';
import { exists, makeDevices, place, sharedLibraries } from './rootfs.js';

// The root for Python jobs: Debian's python3, the parts of its standard library grading can use, pytest
// and what pytest imports, and the Python harness; nothing else of the host. A tree of its own (not the
// Node one) so JavaScript jobs on the chroot backend do not pay for linking a standard library.
export const SANDBOX_PYTHON = '/usr/bin/python3';
export const SANDBOX_PY_HARNESS = '/evigrade/py/boot.py';
const PY_HARNESS_DIR = '/evigrade/py';
const HOST_PYTHON = '/usr/bin/python3';
/**
 * What keeps a forked job's sandbox open (python-forks.ts HOLDER_PROGRAM): a copy of the host's POSIX shell (Debian's
 * dash, Essential), execute-only (mode 0111). The kernel makes a process that executes a file it may not read
 * non-dumpable (`would_dump`, fs/exec.c), so a job's processes, of the same uid, can neither trace it nor read its memory,
 * environment or descriptors (tests/hostile/python-fork.test.ts), as `hold.py` made itself with `prctl` before: the
 * shell starts in ≈ 1 ms where `python3 -I -S` took 13–17 ms of every job (bench/README.md, issue 36, the floor pass).
 */
export const SANDBOX_HOLDER = '/evigrade/hold';
const HOST_SHELL = '/bin/sh';
const DIST = '/usr/lib/python3/dist-packages';
/** pytest 7 and what it imports (Debian's python3-pytest); whichever of these the host has. */
const PACKAGES = ['pytest', '_pytest', 'pluggy', 'iniconfig', 'attr', 'py.py', 'py', 'packaging'];
/** Standard-library parts no grading needs (GUIs, the test suite, installers, a static libpython). */
const SKIP = new Set(['test', 'idlelib', 'tkinter', 'turtledemo', 'ensurepip', 'lib2to3', 'pydoc_data', 'venv', 'sitecustomize.py']);
const LAYOUT = 2;

/** Where Debian's python3 keeps its standard library (/usr/lib/python3.X), or a clear error. */
async function pythonHome(): Promise<{ version: string; stdlib: string }> {
  const missing = new EvigradeError('SANDBOX_UNAVAILABLE',
    'Python grading needs Debian\'s python3 and python3-pytest on the grading host (apt-get install python3 python3-pytest)');
  const binary = await realpath(HOST_PYTHON).catch(() => null);
  const version = /python(3\.\d+)$/.exec(binary ?? '')?.[1];
  if (!version || !(await exists(join(DIST, 'pytest')))) throw missing;
  return { version, stdlib: `/usr/lib/python${version}` };
}

/**
 * The Python root, kept between grader runs in `base` (the grader's cache directory) and reused while nothing it was
 * made from has changed. Deciding that must cost little: every run used to hard-link the standard library again
 * (≈ 1,500 files) and ask `ldd` about each of its ≈ 70 extension modules (≈ 0.9 s of CPU a run, bench/README.md,
 * issue 36). Now the tree is named by what a `stat` can tell — the harness's bytes, the interpreter, every extension
 * module, pytest's package folders — and by the shared libraries `ldd` named when the tree was made (listed beside it
 * and `stat`ed again): an upgraded python3, pytest or library gives another name, so a new tree.
 */
export async function ensurePythonRootfs(base: string, harnessDir: string): Promise<string> {
  const { version, stdlib } = await pythonHome();
  const pyHarness = join(harnessDir, '..', 'python');
  const harnessFiles = (await readdir(pyHarness)).filter((f) => f.endsWith('.py') || f.endsWith('.ini')).sort();
  const dynload = join(stdlib, 'lib-dynload');
  const modules = (await readdir(dynload)).filter((f) => f.endsWith('.so')).map((f) => join(dynload, f));
  const contents = await Promise.all(harnessFiles.map((f) => readFile(join(pyHarness, f))));
  const shell = await realpath(HOST_SHELL);
  const sources = [HOST_PYTHON, shell, stdlib, ...modules, ...PACKAGES.map((p) => join(DIST, p))];
  const key = sha256(Buffer.concat([...contents, Buffer.from(`${LAYOUT}|${version}|${await stamps(sources)}`)])).slice(0, 16);
  const manifest = join(base, `rootfs-py-${key}.libs`);
  const listed = await readFile(manifest, 'utf8').then((t) => t.split('\n').filter(Boolean), () => null);
  if (listed) {
    const dir = join(base, `rootfs-py-${key}-${sha256(await stamps(listed)).slice(0, 12)}`);
    if (await exists(dir)) return dir;
  }
  const libs = await sharedLibraries(HOST_PYTHON, shell, ...modules);
  const dir = join(base, `rootfs-py-${key}-${sha256(await stamps(libs)).slice(0, 12)}`);
  if (!(await exists(dir))) await buildTree(dir, { stdlib, libs, pyHarness, harnessFiles, shell });
  await mkdir(base, { recursive: true, mode: 0o700 });
  const tmp = `${manifest}.${process.pid}.tmp`;
  await writeFile(tmp, libs.join('\n'));
  await rename(tmp, manifest);
  return dir;
}

/** What `stat` says of each path (device, inode, size, modification time): any replacement changes it. */
async function stamps(paths: readonly string[]): Promise<string> {
  const each = await Promise.all(
    paths.map((p) =>
      stat(p).then(
        (s) => `${p}:${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`,
        () => `${p}:-`,
      ),
    ),
  );
  return each.join('|');
}

async function buildTree(dir: string, from: { stdlib: string; libs: string[]; pyHarness: string; harnessFiles: string[]; shell: string }): Promise<void> {
  const { stdlib, libs, pyHarness, harnessFiles, shell } = from;
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  await mkdir(tmp, { recursive: true, mode: 0o755 });
  await place(HOST_PYTHON, join(tmp, SANDBOX_PYTHON), 0o755);
  for (const lib of libs) await place(lib, join(tmp, lib), 0o755);
  await copyTree(stdlib, join(tmp, stdlib), SKIP);
  for (const p of PACKAGES) {
    const src = join(DIST, p);
    if (!(await exists(src))) continue;
    if (p.endsWith('.py')) await place(src, join(tmp, DIST, p), 0o644);
    else await copyTree(src, join(tmp, DIST, p), new Set());
  }
  for (const f of harnessFiles) await place(join(pyHarness, f), join(tmp, PY_HARNESS_DIR, f), 0o644);
  await compileHarness(join(tmp, PY_HARNESS_DIR));
  // A copy, never a link: its mode is its own (a hard link would share, and change, the host's file's).
  await copyFile(shell, join(tmp, SANDBOX_HOLDER));
  await chmod(join(tmp, SANDBOX_HOLDER), 0o111);
  // The empty directory pytest's in-memory test modules are named under.
  for (const d of ['job/sub', 'proc', 'dev', 'tmp', `${PY_HARNESS_DIR.slice(1)}/tests`]) await mkdir(join(tmp, d), { recursive: true, mode: 0o755 });
  await makeDevices(join(tmp, 'dev'));
  await chmod(join(tmp, 'tmp'), 0o1777);
  try {
    await rename(tmp, dir);
  } catch {
    await rm(tmp, { recursive: true, force: true }); // another grader made it first
  }
}

/**
 * The harness's bytecode, made once with the tree: jobs run `python3 -B` under a read-only root, so nothing they
 * import is ever compiled for the next job. `unchecked-hash` .pyc files are used without looking at the source's
 * time stamp, which a hard link shares with the checkout: the tree is named by the harness's bytes, so they match.
 */
async function compileHarness(dir: string): Promise<void> {
  await promisify(execFile)(HOST_PYTHON, ['-I', '-m', 'compileall', '-q', '--invalidation-mode', 'unchecked-hash', '-d', PY_HARNESS_DIR, dir], {
    env: { PATH: '/usr/bin:/bin' },
  });
}

/** Regular files only (symbolic links into /etc and elsewhere are not followed into the root). */
async function copyTree(src: string, dest: string, skip: ReadonlySet<string>): Promise<void> {
  await mkdir(dest, { recursive: true, mode: 0o755 });
  for (const entry of await readdir(src, { withFileTypes: true })) {
    if (skip.has(entry.name) || entry.name.startsWith('config-')) continue;
    const from = join(src, entry.name);
    if (entry.isDirectory()) await copyTree(from, join(dest, entry.name), skip);
    else if (entry.isFile()) await place(from, join(dest, entry.name), 0o644);
  }
}
