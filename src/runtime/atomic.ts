import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

// Write-then-rename, the one way a file of ours is written: a reader (another worker, a re-run after Ctrl-C, a lint
// thread starting) sees the old file or the new one, never half of one. The temporary name is hidden, beside the file
// (a rename never crosses a file system), and no other writer picks it; it is removed when the write fails.

export interface AtomicOptions {
  /** The file's mode. */
  readonly mode: number;
  /** Makes the folder (and its parents) first, with this mode. */
  readonly dirMode?: number;
}

const tmpBeside = (file: string): string =>
  join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);

/** Writes `file` atomically, or throws the system's error (the temporary file removed). */
export async function writeAtomic(file: string, data: string | Uint8Array, opts: AtomicOptions): Promise<void> {
  const tmp = tmpBeside(file);
  try {
    if (opts.dirMode !== undefined) await mkdir(dirname(file), { recursive: true, mode: opts.dirMode });
    await writeFile(tmp, data, { flag: 'wx', mode: opts.mode });
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/** The same, synchronously: for a few small files where a round trip through the thread pool each costs more. */
export function writeAtomicSync(file: string, data: string | Uint8Array, opts: AtomicOptions): void {
  const tmp = tmpBeside(file);
  try {
    if (opts.dirMode !== undefined) mkdirSync(dirname(file), { recursive: true, mode: opts.dirMode });
    writeFileSync(tmp, data, { flag: 'wx', mode: opts.mode });
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** A cache entry, kept if it can be (private to this user): one that cannot be written only costs a later run its work. */
export function keepCacheEntry(file: string, data: string | Uint8Array): boolean {
  try {
    writeAtomicSync(file, data, { mode: 0o600, dirMode: 0o700 });
    return true;
  } catch {
    return false;
  }
}
