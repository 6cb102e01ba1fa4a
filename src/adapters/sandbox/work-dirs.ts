import { mkdtempSync } from 'node:fs';
import { lstat, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from '../../util/pid.js';

// `evigrade-<pid>-` and the six characters mkdtemp adds: the pid says whether the directory's grader still runs.
const STALE_CANDIDATE = /^evigrade-(\d+)-[A-Za-z0-9]{6}$/;

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
