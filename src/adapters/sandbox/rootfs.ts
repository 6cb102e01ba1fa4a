import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmod, copyFile, link, mkdir, readdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { sha256 } from '../../util/hash.js';

const run = promisify(execFile);

export const SANDBOX_NODE = '/usr/bin/node';
export const SANDBOX_HARNESS_DIR = '/evigrade';
export const SANDBOX_HARNESS = '/evigrade/boot.cjs';
export const SANDBOX_ROOT = '/job/sub';
/** Bumped when the tree's layout changes, so cached trees and Docker images are rebuilt. */
const ROOTFS_LAYOUT = 2;

/** The shared libraries binaries need, as absolute paths. */
export async function sharedLibraries(...binaries: string[]): Promise<string[]> {
  const libs = new Set<string>();
  for (const binary of binaries) {
    const { stdout } = await run('ldd', [binary], { env: { PATH: '/usr/bin:/bin' } }).catch(() => ({ stdout: '' }));
    for (const line of stdout.split('\n')) {
      const m = /=>\s*(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s+\(/.exec(line);
      if (m?.[1]) libs.add(m[1]);
    }
  }
  return [...libs].sort();
}

/** Hard-links (or copies) the real file behind src. Never chmods a hard link: that would change the host's file. */
export async function place(src: string, dest: string, mode: number): Promise<void> {
  await mkdir(dirname(dest), { recursive: true, mode: 0o755 });
  const real = await realpath(src);
  try {
    await link(real, dest);
  } catch {
    await copyFile(real, dest);
    await chmod(dest, mode);
  }
}

/** What a job's harness directory holds (sandbox/dist): the bundle first, then its starters and ESM hooks. */
const HARNESS_FILES = ['harness.cjs', 'hooks.mjs', 'boot.cjs', 'snapshot.cjs'];

/**
 * A minimal root file system for jobs: the node binary, its libraries and the
 * harness; nothing else of the host. Built once per content hash, atomically.
 * Both process backends and the Docker image use this same tree.
 */
export async function ensureRootfs(base: string, harnessDir: string, opts: { devices?: boolean } = {}): Promise<string> {
  const nodePath = process.execPath;
  const harness = await readFile(join(harnessDir, 'harness.cjs'));
  const hooks = Buffer.concat(await Promise.all(HARNESS_FILES.slice(1).map((f) => readFile(join(harnessDir, f)))));
  const libs = await sharedLibraries(nodePath);
  const key = sha256(Buffer.concat([harness, hooks, Buffer.from(`${ROOTFS_LAYOUT}|${nodePath}|${process.version}|${libs.join(',')}`)])).slice(0, 16);
  const dir = join(base, `rootfs-${key}`);
  // The tree is built under a temporary name and renamed: if the directory exists, it is complete.
  if (await exists(dir)) return dir;
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  await mkdir(tmp, { recursive: true, mode: 0o755 });
  await place(nodePath, join(tmp, SANDBOX_NODE), 0o755);
  for (const lib of libs) await place(lib, join(tmp, lib), 0o755);
  for (const f of HARNESS_FILES) await place(join(harnessDir, f), join(tmp, SANDBOX_HARNESS_DIR, f), 0o644);
  for (const d of ['job/sub', 'proc', 'dev', 'tmp']) await mkdir(join(tmp, d), { recursive: true, mode: 0o755 });
  // Only a chroot job sees these (bwrap and Docker mount their own /dev): four mknod processes a command saves.
  if (opts.devices ?? true) await makeDevices(join(tmp, 'dev'));
  // Docker copies the image's /tmp mode onto its tmpfs; bwrap mounts its own; chroot jobs get 0755 copies.
  await chmod(join(tmp, 'tmp'), 0o1777);
  try {
    await rename(tmp, dir);
  } catch {
    await rm(tmp, { recursive: true, force: true }); // another process won the race
  }
  return dir;
}

// The harmless character devices programs expect (spawn with stdio 'ignore'
// opens /dev/null). bwrap mounts its own /dev over these; chroot jobs use them.
const DEVICES: [string, number, number][] = [['null', 1, 3], ['zero', 1, 5], ['random', 1, 8], ['urandom', 1, 9]];
export async function makeDevices(dir: string): Promise<void> {
  for (const [name, major, minor] of DEVICES) {
    try {
      await run('mknod', ['-m', '666', join(dir, name), 'c', String(major), String(minor)], { env: { PATH: '/usr/bin:/bin' } });
    } catch {
      // not root, or a nodev file system: jobs simply have no such device
    }
  }
}

export async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

/** Hard-links the rootfs tree into a job directory (for chroot-based backends). */
export async function materialiseRoot(rootfs: string, jobDir: string): Promise<void> {
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const src = join(dir, entry.name);
      const dest = join(jobDir, relative(rootfs, src));
      if (entry.isDirectory()) {
        await mkdir(dest, { recursive: true, mode: 0o755 });
        await walk(src);
      } else if (entry.name.endsWith('.tmp')) {
        continue; // a snapshot or code cache still being made for other flags (placed by rename when done)
      } else if (entry.isFile() || entry.isCharacterDevice()) {
        await mkdir(dirname(dest), { recursive: true, mode: 0o755 });
        await link(src, dest);
      }
    }
  };
  await walk(rootfs);
}
