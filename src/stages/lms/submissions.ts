import { isEvigradeError, type ErrorCode } from '../../domain/errors.js';
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
import { intakeEntries, intakeFail } from '../intake/intake.js';
import { slug } from '../intake/intake-names.js';

/** A generated id (`_`: no plain name can take it, see domain/submission.ts) of the LMS's name and user id. */
function submissionId(a: LmsIdentity, all: boolean, taken: Set<string>): string {
  const base = `_${slug(`${a.name} ${a.userId}`).slice(0, 56) || 'student'}`;
  let id = all && a.attempt !== null ? `${base}-attempt-${a.attempt}` : base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** The latest attempt per student (highest number, else latest stamp), or every attempt. */
export function chooseAttempts(attempts: readonly LmsAttempt[], choice: AttemptChoice): LmsAttempt[] {
  if (choice === 'all') return [...attempts];
  const latest = new Map<string, LmsAttempt>();
  const rank = (a: LmsAttempt): string =>
    `${String(a.identity.attempt ?? 0).padStart(6, '0')}|${a.identity.submittedAt ?? ''}`;
  for (const a of attempts) {
    const prev = latest.get(a.identity.userId);
    if (!prev || rank(a) > rank(prev)) latest.set(a.identity.userId, a);
  }
  return [...latest.values()];
}

/**
 * An attempt of one uploaded file is a single-file submission, renamed to the entry file as folder intake renames
 * `alice.js` to `leap.js` (a Canvas `…_solution.js` is graded as `leap.js`); its messages name the student's file.
 */
function asEntry(a: LmsAttempt, entryFile: string): LmsAttempt {
  const [only] = a.files;
  if (a.files.length !== 1 || !only || only.path.includes('/') || only.path === entryFile) return a;
  return { ...a, files: [{ ...only, path: entryFile, label: `"${only.path}" (graded as ${entryFile})` }] };
}

/** The attempt's files as text under intake's per-file rules (limits and the entry file are checked when graded). */
function toText(a: LmsAttempt, id: string): Pick<LmsSubmission, 'files' | 'ignored' | 'error'> {
  try {
    const seen = new Set<string>();
    for (const { path } of a.files) {
      if (seen.has(path)) intakeFail('INTAKE_PATH_INVALID', id, `two files in the download are both named "${path}"`);
      seen.add(path);
    }
    const { files, ignored } = intakeEntries(
      id,
      a.files.map(({ path, entry, label }) => ({
        path,
        ...(label !== undefined && { label }),
        kind: entry.kind,
        data: entry.data,
        note: `(${entry.path} in the download)`,
      })),
    );
    return {
      files: Object.fromEntries(files.map((f) => [f.path, f.content])),
      ignored: [...a.ignored, ...ignored],
      error: null,
    };
  } catch (e) {
    if (!isEvigradeError(e)) throw e;
    return { files: {}, ignored: a.ignored, error: { code: e.code, message: e.message } };
  }
}

/** One submission per chosen attempt, ids stable and sorted: the batch's input. */
export function lmsSubmissions(
  attempts: readonly LmsAttempt[],
  choice: AttemptChoice,
  entryFile: string,
): LmsSubmission[] {
  const chosen = chooseAttempts(attempts, choice).sort((x, y) => {
    const kx = `${x.identity.userId}\u0000${String(x.identity.attempt ?? 0).padStart(6, '0')}`;
    const ky = `${y.identity.userId}\u0000${String(y.identity.attempt ?? 0).padStart(6, '0')}`;
    return kx < ky ? -1 : 1;
  });
  const taken = new Set<string>();
  return chosen.map((a) => {
    const id = submissionId(a.identity, choice === 'all', taken);
    return { id, lms: a.identity, ...toText(asEntry(a, entryFile), id) };
  });
}

/** The report with the LMS identity of its submission, when it came from a download. */
export const withLms = (r: Report, lms: LmsIdentity | undefined | null): Report =>
  lms ? { ...r, submission: { ...r.submission, lms } } : r;
