import { mkdtempSync } from 'node:fs';
import { lstat, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from '../../util/pid.js';

// `evigrade-<pid>-` and the six characters mkdtemp adds: the pid says whether the directory's grader still runs.
const STALE_CANDIDATE = /^evigrade-(\d+)-[A-Za-z0-9]{6}$/;

/**
 * Where a sandbox's work directory goes. A backend that builds each job's root from hard links (unshare) links the
 * Python root kept in the cache directory (python-rootfs.ts), and a hard link cannot cross file systems: where /tmp
 * is another one than the cache's (a tmpfs /tmp, as on Debian 13, Arch or Fedora), every Python job failed with
 * EXDEV. There the work directory goes beside the cache instead. Other backends bind the roots and keep /tmp.
 */
export async function workParent(linksRoots: boolean, cache: string): Promise<string> {
  const tmp = tmpdir();
  if (!linksRoots) return tmp;
  await mkdir(cache, { recursive: true, mode: 0o700 });
  const [t, c] = await Promise.all([stat(tmp), stat(cache)]);
  return t.dev === c.dev ? tmp : cache;
}

/** The private work directory of one opened sandbox (its root file systems and job directories), named by our pid. */
export function makeWorkDir(parent: string = tmpdir()): string {
  return mkdtempSync(join(parent, `evigrade-${process.pid}-`));
}

/**
 * Removes work directories left by graders that were killed before their exit handler ran. Each holds a root file
 * system, which is a full copy of node and its libraries where /tmp is another file system than node's (a tmpfs):
 * ≈ 100 MB of memory per killed run. Only directories of our naming, owned by this user, whose grader is gone; at most
 * `limit` a call, so one run never spends long on a backlog. Never follows a link (lstat; `rm` removes links, not
 * what they point to).
 */
export async function sweepStaleWorkDirs(parent: string = tmpdir(), limit = 64): Promise<number> {
  let removed = 0;
  for (const name of await readdir(parent)) {
    const m = STALE_CANDIDATE.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || isAlive(pid)) continue;
    const dir = join(parent, name);
    const st = await lstat(dir).catch(() => null);
    if (!st?.isDirectory() || st.uid !== process.getuid?.()) continue;
    await rm(dir, { recursive: true, force: true });
    if (++removed >= limit) break;
  }
  return removed;
}
