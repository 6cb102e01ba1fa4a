import { chmod, mkdir, readdir, readFile, realpath, rename, rm } from 'node:fs/promises';
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
const DIST = '/usr/lib/python3/dist-packages';
/** pytest 7 and what it imports (Debian's python3-pytest); whichever of these the host has. */
const PACKAGES = ['pytest', '_pytest', 'pluggy', 'iniconfig', 'attr', 'py.py', 'py', 'packaging'];
/** Standard-library parts no grading needs (GUIs, the test suite, installers, a static libpython). */
const SKIP = new Set(['test', 'idlelib', 'tkinter', 'turtledemo', 'ensurepip', 'lib2to3', 'pydoc_data', 'venv', 'sitecustomize.py']);
const LAYOUT = 1;

/** Where Debian's python3 keeps its standard library (/usr/lib/python3.X), or a clear error. */
async function pythonHome(): Promise<{ version: string; stdlib: string }> {
  const missing = new EvigradeError('SANDBOX_UNAVAILABLE',
    'Python grading needs Debian\'s python3 and python3-pytest on the grading host (apt-get install python3 python3-pytest)');
  const binary = await realpath(HOST_PYTHON).catch(() => null);
  const version = /python(3\.\d+)$/.exec(binary ?? '')?.[1];
  if (!version || !(await exists(join(DIST, 'pytest')))) throw missing;
  return { version, stdlib: `/usr/lib/python${version}` };
}

export async function ensurePythonRootfs(base: string, harnessDir: string): Promise<string> {
  const { version, stdlib } = await pythonHome();
  const pyHarness = join(harnessDir, '..', 'python');
  const harnessFiles = (await readdir(pyHarness)).filter((f) => f.endsWith('.py') || f.endsWith('.ini')).sort();
  const dynload = join(stdlib, 'lib-dynload');
  const modules = (await readdir(dynload)).filter((f) => f.endsWith('.so')).map((f) => join(dynload, f));
  const libs = await sharedLibraries(HOST_PYTHON, ...modules);
  const contents = await Promise.all(harnessFiles.map((f) => readFile(join(pyHarness, f))));
  const key = sha256(Buffer.concat([...contents, Buffer.from(`${LAYOUT}|${version}|${libs.join(',')}`)])).slice(0, 16);
  const dir = join(base, `rootfs-py-${key}`);
  if (await exists(dir)) return dir;
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
  // The empty directory pytest's in-memory test modules are named under.
  for (const d of ['job/sub', 'proc', 'dev', 'tmp', `${PY_HARNESS_DIR.slice(1)}/tests`]) await mkdir(join(tmp, d), { recursive: true, mode: 0o755 });
  await makeDevices(join(tmp, 'dev'));
  await chmod(join(tmp, 'tmp'), 0o1777);
  try {
    await rename(tmp, dir);
  } catch {
    await rm(tmp, { recursive: true, force: true });
  }
  return dir;
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
