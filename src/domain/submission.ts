// Letters, digits, marks and a few punctuation characters; no controls, bidi
// overrides, zero-width characters, separators or leading dashes.
export const SAFE_SEGMENT = /^(?!-)[\p{L}\p{M}\p{N}._ +@()-]{1,128}$/u;

/** A submission after intake: every file is checked UTF-8 text with a safe relative path. */
export interface SubmissionFile {
  readonly path: string;
  readonly content: string;
  readonly sha256: string;
  readonly bytes: number;
}
export interface Submission {
  readonly id: string;
  readonly files: readonly SubmissionFile[];
  readonly sha256: string;
  /** Files present but deliberately not given to the job (package configs, node_modules...). */
  readonly ignored: readonly string[];
}

/** The submission of a report whose files never made it through intake. */
export const emptySubmission = (id: string): Submission => ({ id, files: [], ignored: [], sha256: '' });
