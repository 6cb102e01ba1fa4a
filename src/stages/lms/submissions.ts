import type { RawEntry } from '../../domain/lms.js';
import type { ErrorCode } from '../../domain/errors.js';
import type { AttemptChoice, LmsIdentity } from '../../domain/lms.js';
import type { Report } from '../../domain/report.js';
import type { LmsAttempt } from './types.js';

/** A student's files as text, ready for the file-map intake rules, or the error that rejects them. */
export interface LmsSubmission {
  readonly id: string;
  readonly lms: LmsIdentity;
  readonly files: Record<string, string>;
  readonly ignored: readonly string[];
  readonly error: { code: ErrorCode; message: string } | null;
}


const KIND_ERRORS: Record<Exclude<RawEntry['kind'], 'file'>, [ErrorCode, string]> = {
  symlink: ['INTAKE_SYMLINK', 'is a symbolic link'],
  hardlink: ['INTAKE_HARDLINK', 'has more than one hard link'],
  special: ['INTAKE_SPECIAL_FILE', 'is a device, FIFO or socket'],
};

/** ASCII, lower case, "-" between words: safe as a report file name and as a POST /batches id. */
function slug(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

function submissionId(a: LmsIdentity, all: boolean, taken: Set<string>): string {
  const base = slug(`${a.name} ${a.userId}`).slice(0, 56) || 'student';
  let id = all && a.attempt !== null ? `${base}-attempt-${a.attempt}` : base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** The latest attempt per student (highest number, else latest stamp), or every attempt. */
export function chooseAttempts(attempts: readonly LmsAttempt[], choice: AttemptChoice): LmsAttempt[] {
  if (choice === 'all') return [...attempts];
  const latest = new Map<string, LmsAttempt>();
  const rank = (a: LmsAttempt): string => `${String(a.identity.attempt ?? 0).padStart(6, '0')}|${a.identity.submittedAt ?? ''}`;
  for (const a of attempts) {
    const prev = latest.get(a.identity.userId);
    if (!prev || rank(a) > rank(prev)) latest.set(a.identity.userId, a);
  }
  return [...latest.values()];
}

function toText(a: LmsAttempt, id: string): Pick<LmsSubmission, 'files' | 'error'> {
  const files: Record<string, string> = {};
  for (const { path, entry } of [...a.files].sort((x, y) => (x.path < y.path ? -1 : 1))) {
    if (entry.kind !== 'file') {
      const [code, what] = KIND_ERRORS[entry.kind];
      return { files: {}, error: { code, message: `submission "${id}": "${path}" ${what} (${entry.path} in the download)` } };
    }
    if (Object.hasOwn(files, path)) return { files: {}, error: { code: 'INTAKE_PATH_INVALID', message: `submission "${id}": two files in the download are both named "${path}"` } };
    try {
      files[path] = new TextDecoder('utf-8', { fatal: true }).decode(entry.data);
    } catch {
      return { files: {}, error: { code: 'INTAKE_NOT_UTF8', message: `submission "${id}": "${path}" is not valid UTF-8 text` } };
    }
  }
  return { files, error: null };
}

/** One submission per chosen attempt, ids stable and sorted: the batch's input. */
export function lmsSubmissions(attempts: readonly LmsAttempt[], choice: AttemptChoice): LmsSubmission[] {
  const chosen = chooseAttempts(attempts, choice).sort((x, y) => {
    const kx = `${x.identity.userId}\u0000${String(x.identity.attempt ?? 0).padStart(6, '0')}`;
    const ky = `${y.identity.userId}\u0000${String(y.identity.attempt ?? 0).padStart(6, '0')}`;
    return kx < ky ? -1 : 1;
  });
  const taken = new Set<string>();
  return chosen.map((a) => {
    const id = submissionId(a.identity, choice === 'all', taken);
    return { id, lms: a.identity, ignored: a.ignored, ...toText(a, id) };
  });
}

/** The report with the LMS identity of its submission, when it came from a download. */
export const withLms = (r: Report, lms: LmsIdentity | undefined | null): Report => (lms ? { ...r, submission: { ...r.submission, lms } } : r);
