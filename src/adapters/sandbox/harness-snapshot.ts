import { copyFile, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256 } from '../../util/hash.js';
import { cacheDir } from '../../runtime/cache.js';
import { placeMade, runHostNode, runWarmUp } from './code-cache.js';
import { exists, SANDBOX_HARNESS_DIR } from './rootfs.js';

/**
 * The sandbox path of a V8 start-up snapshot of the harness for exactly these node flags, or null if one cannot be
 * made here (jobs then start from boot.cjs and its code cache). A job started from it has the harness's own modules
 * loaded and the whole bundle (Jest's packages included) compiled before its first instruction: a leap job costs
 * ≈ 5–13 ms less CPU than from boot.cjs with a code cache (bench/README.md). What a snapshot may hold, and what stays
 * per job (ses, lockdown(), Jest's module bodies, the payload, the environment), is in sandbox/harness/snapshot.cjs.
 *
 * Made once per root file system and flags (≈ 0.4 s of CPU) by `node --build-snapshot` on the host, with a job's
 * environment, then checked by running the warm-up job from it; a blob that fails the check is never used. The
 * root file system's name covers the node binary's path and version and the harness; node itself refuses a blob
 * made by another build or under other flags.
 */
export function harnessSnapshotFor(rootfs: string, nodeArgs: readonly string[]): Promise<string | null> {
  const name = `snapshot-${sha256(nodeArgs.join('\0')).slice(0, 16)}.blob`;
  return placeMade(
    rootfs,
    'snapshot',
    name,
    async (tmp) => {
      await buildBlob(rootfs, nodeArgs, tmp);
      await runWarmUp([...nodeArgs, '--snapshot-blob', tmp]);
    },
    (kept) => startsFrom(nodeArgs, kept),
  );
}

/**
 * A kept blob is checked before use: one made by another build of node (a cache directory shared between machines, a
 * node rebuilt at the same version and path) is refused by node, and every job started from it would die at
 * start-up. Resolves once the harness in it has said hello (≈ 35 ms of CPU), or at once when a blob of this size has
 * already started under this very node binary and these flags (a mark in the grader's cache: a rebuilt or replaced
 * binary has another inode, size or modification time).
 */
async function startsFrom(nodeArgs: readonly string[], blob: string): Promise<void> {
  const mark = join(cacheDir('snapshot'), `started-${await startStamp(nodeArgs, blob)}`);
  if (await exists(mark)) return;
  // With no payload the harness stops right after its hello frame.
  const run = await runHostNode([...nodeArgs, '--snapshot-blob', blob]);
  if (!run.frames.startsWith('{"seq":0,"type":"hello"')) throw new Error(`the kept snapshot does not start: ${run.stderr}`);
  await writeFile(mark, '').catch(() => undefined);
}

/**
 * What decides whether node starts a blob: the node binary itself, the flags, and (for a damaged copy) its size. Not
 * the binary's ctime: every command's root file system hard-links node, which changes it, so a stamp with it never
 * matched twice and every command paid the check (≈ 35 ms of CPU).
 */
async function startStamp(nodeArgs: readonly string[], blob: string): Promise<string> {
  const [node, made] = await Promise.all([stat(process.execPath), stat(blob)]);
  const identity = [process.version, node.dev, node.ino, node.size, node.mtimeMs, made.size, ...nodeArgs];
  return sha256(identity.join('\0')).slice(0, 32);
}

/**
 * Runs the builder in a directory of its own holding only the builder and the bundle, under relative names: node
 * keeps its working directory and entry path in the blob, and a job can read the blob, so these name nothing of
 * the grader's (not where its root file systems or caches live).
 */
async function buildBlob(rootfs: string, nodeArgs: readonly string[], out: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'evigrade-snapshot-'));
  try {
    for (const f of ['snapshot.cjs', 'harness.cjs']) await copyFile(join(rootfs, SANDBOX_HARNESS_DIR, f), join(dir, f));
    // The builder's one argument: the harness directory as jobs see it (the paths stack traces and hooks.mjs name).
    const argv = [...nodeArgs, '--snapshot-blob', 'harness.blob', '--build-snapshot', 'snapshot.cjs', SANDBOX_HARNESS_DIR];
    const run = await runHostNode(argv, { cwd: dir, timeoutMs: 30_000 });
    if (run.code !== 0) throw new Error(`snapshot build exited ${run.code}: ${run.stderr}`);
    await copyFile(join(dir, 'harness.blob'), out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
