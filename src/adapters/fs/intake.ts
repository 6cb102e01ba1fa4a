// A submission on disk read into intake entries (stages/intake/intake.ts holds every rule). Nothing is followed:
// `lstat` walk, `O_NOFOLLOW|O_NONBLOCK` open, `fstat` re-check; links and devices come back as such, never
// opened; reading stops at the rubric's limits, so a huge file or folder costs nothing.
import { constants } from 'node:fs';
import { lstat, open, readdir, type FileHandle } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { languageOf } from '../../domain/languages.js';
import { asEvigradeError, EvigradeError } from '../../domain/errors.js';
import type { Limits, Rubric } from '../../domain/rubric.js';
import type { Submission } from '../../domain/submission.js';
import { intake, intakeFail, isIgnoredName, MAX_DEPTH, type IntakeEntry } from '../../stages/intake/intake.js';

interface Walk {
  readonly limits: Limits;
  readonly out: IntakeEntry[];
  files: number;
  bytes: number;
}

/** Past a limit the rest need not be read: intake rejects at the first entry over it. */
const full = (w: Walk): boolean => w.files > w.limits.max_files || w.bytes > w.limits.max_bytes;

/** Reads at most `max` bytes of an open file (one more tells that it is longer). */
async function readAtMost(fh: FileHandle, max: number): Promise<Buffer> {
  const buf = Buffer.alloc(max + 1);
  let n = 0;
  for (let r = 1; r > 0 && n < buf.length; n += r) r = (await fh.read(buf, n, buf.length - n, n)).bytesRead;
  return buf.subarray(0, n);
}

async function readRegular(abs: string, path: string, w: Walk, label?: string): Promise<IntakeEntry> {
  const at = { path, ...(label && { label }) };
  // O_NOFOLLOW + O_NONBLOCK: never follow a link swapped in after lstat, never hang on a FIFO.
  const fh = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => null);
  if (!fh) return { ...at, kind: 'special' };
  try {
    const st = await fh.stat();
    if (!st.isFile()) return { ...at, kind: 'special' };
    if (st.nlink > 1) return { ...at, kind: 'hardlink', links: st.nlink };
    w.files++;
    const room = w.limits.max_bytes - w.bytes;
    if (st.size > room) {
      w.bytes += st.size;
      return { ...at, kind: 'file', size: st.size };
    }
    // What fstat says, plus one byte to see a file that grew meanwhile: that one is read again, up to the room left.
    let data = await readAtMost(fh, Math.min(st.size, room));
    if (data.length > st.size) data = await readAtMost(fh, room);
    w.bytes += data.length;
    return { ...at, kind: 'file', data };
  } finally {
    await fh.close();
  }
}

async function walk(absDir: string, relDir: string, depth: number, w: Walk): Promise<void> {
  for (const name of (await readdir(absDir)).sort()) {
    if (full(w)) return;
    const path = relDir ? `${relDir}/${name}` : name;
    if (isIgnoredName(name)) {
      w.out.push({ path, kind: 'skipped' });
      continue;
    }
    const abs = join(absDir, name);
    const st = await lstat(abs);
    if (st.isSymbolicLink()) w.out.push({ path, kind: 'symlink' });
    else if (st.isDirectory()) {
      if (depth >= MAX_DEPTH) w.out.push({ path, kind: 'deep' });
      else await walk(abs, path, depth + 1, w);
    } else if (st.isFile()) w.out.push(await readRegular(abs, path, w));
    else w.out.push({ path, kind: 'special' });
  }
}

/** The entry's file name, for single-file submissions: `./leap` → `leap.js` (`leap.ts` for TypeScript, `leap.py` for Python). */
export const entryFileName = (entry: string, language = 'javascript'): string => {
  const b = basename(entry);
  return extname(b) ? b : `${b}${languageOf(language).entrySuffix}`;
};

/** A folder, or a single file renamed to the entry file, as intake entries. */
export async function readEntries(
  path: string,
  id: string,
  limits: Limits,
  entry: string,
  language = 'javascript',
): Promise<IntakeEntry[]> {
  const w: Walk = { limits, out: [], files: 0, bytes: 0 };
  const st = await lstat(path);
  if (st.isSymbolicLink()) intakeFail('INTAKE_SYMLINK', id, 'the submission itself is a symbolic link');
  if (st.isDirectory()) await walk(path, '', 0, w);
  else if (st.isFile()) {
    const name = entryFileName(entry, language);
    // Messages name the file the student has: "photo.png" (graded as leap.js), never "leap.js" alone.
    w.out.push(
      await readRegular(path, name, w, basename(path) === name ? undefined : `"${basename(path)}" (graded as ${name})`),
    );
  } else intakeFail('INTAKE_SPECIAL_FILE', id, 'the submission is a device, FIFO or socket');
  return w.out;
}

/**
 * Reads one submission (a folder, or a single file named after the student) and applies intake.
 * Throws an INTAKE_* error naming what is wrong; the caller turns that into a rejected report.
 */
export async function readSubmission(
  path: string,
  id: string,
  limits: Limits,
  entry: string,
  language = 'javascript',
  name?: string,
): Promise<Submission> {
  return intake(id, await readEntries(path, id, limits, entry, language), { limits, entry, language }, name);
}

/**
 * The rubric's reference solution as a submission, or null when the rubric has none. A reference intake refuses (no
 * file the entry names, a symbolic link…) is the rubric's fault, not a student's: REFERENCE_FAILED (exit 3, 422), with
 * intake's message after `label`, wherever a reference is read (a batch's check, an audit).
 */
export async function readReference(rubric: Rubric, label: string): Promise<Submission | null> {
  if (!rubric.referenceDir) return null;
  const { limits, entry, language } = rubric.spec;
  try {
    return await readSubmission(rubric.referenceDir, 'reference', limits, entry, language);
  } catch (err) {
    throw new EvigradeError(
      'REFERENCE_FAILED',
      `${label}: the reference solution cannot be graded: ${asEvigradeError(err).message}`,
    );
  }
}
