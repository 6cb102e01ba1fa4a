// Letters, digits, marks and a few punctuation characters; no controls, bidi
// overrides, zero-width characters, separators or leading dashes.
export const SAFE_SEGMENT = /^(?!-)[\p{L}\p{M}\p{N}._ +@()-]{1,128}$/u;

/** A name used as its own id: ASCII, so no file system folds two into one by case or normalisation. */
export const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/**
 * Ids the system makes (a name that is not SAFE_ID, an LMS student, a refused clash) start with `_`, which no
 * SAFE_ID may: a name can never be taken as the id made for another (stages/intake/intake-names.ts).
 */
export const GENERATED_ID = /^_[a-z0-9][a-z0-9-]{0,120}$/;
/** Any submission id: a plain name or a generated id. */
export const isSubmissionId = (id: string): boolean => SAFE_ID.test(id) || GENERATED_ID.test(id);

/** A submission after intake: every file is checked UTF-8 text with a safe relative path. */
export interface SubmissionFile {
  readonly path: string;
  readonly content: string;
  readonly sha256: string;
  readonly bytes: number;
}
export interface Submission {
  /** Safe as a file name and URL segment (stages/intake/intake-names.ts). */
  readonly id: string;
  /** The name as the student's folder, file or LMS gave it, when it differs from the id (o'brien, José Núñez). */
  readonly name?: string;
  readonly files: readonly SubmissionFile[];
  readonly sha256: string;
  /** Files present but deliberately not given to the job (package configs, node_modules...). */
  readonly ignored: readonly string[];
}

/** The submission of a report whose files never made it through intake. */
export const emptySubmission = (id: string, name?: string): Submission => ({
  id,
  ...(name !== undefined && name !== id && { name }),
  files: [],
  ignored: [],
  sha256: '',
});
