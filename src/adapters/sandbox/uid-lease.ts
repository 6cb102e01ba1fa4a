import { randomInt } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { EvigradeError } from '../../domain/errors.js';

/**
 * Host-wide allocation of job uids (the unshare backend runs each job as a host uid of its own, so that
 * RLIMIT_NPROC and signals are per job). Every grader process on the host competes for the same uids:
 * a uid is held by binding an abstract unix socket named after it. The kernel makes the name exclusive
 * in the network namespace and frees it when the socket closes, so a lock is released with the grader
 * even when it dies by SIGKILL, and there is no file a job could create, replace or hold. Jobs run in
 * network namespaces of their own: they cannot bind these names. A uid that some process still runs as
 * (a job orphaned by a dead grader) is skipped too.
 */
export interface UidLease {
  readonly uid: number;
  /** Frees the uid; call only once no process of the job is left. */
  release(): Promise<void>;
}

export interface UidRange {
  readonly first: number;
  readonly count: number;
}

export const JOB_UIDS: UidRange = { first: 200_000, count: 50_000 };
/** The abstract socket name (leading NUL) that holds a uid; exported for tests that look for leaked locks. */
export const uidLockName = (uid: number): string => `\0evigrade-job-uid-${uid}`;

/** Binds the uid's name, or null when another holder has it. */
function hold(uid: number): Promise<Server | null> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' ? resolve(null) : reject(e)));
    server.listen({ path: uidLockName(uid), exclusive: true }, () => {
      server.unref(); // a held lock never keeps the grader alive
      resolve(server);
    });
  });
}

/**
 * Uids in the range that any process on the host runs as (real, effective, saved or file-system uid).
 * Synchronous on purpose: about 17 µs of CPU per process, where an async read costs twenty times that.
 */
export function uidsInUse(range: UidRange = JOB_UIDS): Set<number> {
  const busy = new Set<number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let status = '';
    try {
      status = readFileSync(`/proc/${name}/status`, 'utf8');
    } catch {
      // the process ended meanwhile
    }
    const m = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(status);
    for (const u of m ? m.slice(1).map(Number) : []) if (u >= range.first && u < range.first + range.count) busy.add(u);
  }
  return busy;
}

/** A uid no other job on this host is using, held until released (or until this process dies). */
export async function leaseJobUid(range: UidRange = JOB_UIDS): Promise<UidLease> {
  const busy = uidsInUse(range);
  // A random starting point keeps graders apart; the lock, not the randomness, is what makes the uid exclusive.
  const start = randomInt(range.count);
  for (let i = 0; i < range.count; i++) {
    const uid = range.first + ((start + i) % range.count);
    if (busy.has(uid)) continue;
    const server = await hold(uid);
    if (!server) continue;
    let released: Promise<void> | null = null;
    return { uid, release: () => (released ??= new Promise<void>((resolve) => server.close(() => resolve()))) };
  }
  throw new EvigradeError('SANDBOX_FAILED', `no free job uid in ${range.first}..${range.first + range.count - 1}: every one is held by a grader or used by a process`);
}
