import { lstat, readFile } from 'node:fs/promises';
import { EvigradeError } from '../../domain/errors.js';
import type { AttemptChoice, LmsSystem } from '../../domain/lms.js';
import { resolveFormat } from '../../stages/lms/registry.js';
import { lmsSubmissions, type LmsSubmission } from '../../stages/lms/submissions.js';
import type { RawEntry } from './entries.js';
import { ARCHIVE_LIMITS, archiveInvalid } from './entries.js';
import { readTree } from './tree.js';
import { isZip, readZip } from './zip.js';

export interface Download {
  readonly system: LmsSystem;
  readonly submissions: LmsSubmission[];
  readonly unmatched: readonly string[];
}

/** The entries of a download: a zip as the LMS gave it, or the folder it was unpacked into. */
async function entriesOf(path: string): Promise<RawEntry[]> {
  const st = await lstat(path).catch(() => {
    throw new EvigradeError('USAGE', `grade: cannot read "${path}"`);
  });
  if (st.isDirectory()) return readTree(path, ARCHIVE_LIMITS);
  if (!st.isFile()) throw archiveInvalid(path, 'is neither a zip file nor a folder (links are not followed)');
  if (st.size > ARCHIVE_LIMITS.maxBytes)
    throw archiveInvalid(path, `${st.size} bytes, more than the ${ARCHIVE_LIMITS.maxBytes} an archive may hold`);
  const buf = await readFile(path);
  if (!isZip(buf)) throw archiveInvalid(path, 'is not a zip file');
  return readZip(buf, path, ARCHIVE_LIMITS);
}

/** An LMS download read into one submission per student (or attempt), under the archive and intake rules. */
export async function readDownload(
  path: string,
  from: LmsSystem | 'auto',
  attempts: AttemptChoice,
  entryFile: string,
): Promise<Download> {
  const { format, entries } = resolveFormat(await entriesOf(path), from, path);
  const parsed = format.parse(entries, { entryFile });
  return {
    system: format.id,
    submissions: lmsSubmissions(parsed.attempts, attempts, entryFile),
    unmatched: parsed.unmatched,
  };
}
