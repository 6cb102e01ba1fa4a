import { z } from 'zod';
import type { ExitCode } from './exit-codes.js';

/**
 * The one error table. Codes are stable API: reports, CLI messages and HTTP
 * bodies carry them, and DESIGN.md lists them (a test keeps the two in sync).
 * `http` is the status the service answers with; `exit` the CLI exit code.
 */
export const ERROR_TABLE = {
  USAGE: { http: 400, exit: 2, summary: 'The command line or request is malformed.' },
  CONFIG_INVALID: { http: 500, exit: 2, summary: 'The configuration file or environment is invalid.' },
  RUBRIC_NOT_FOUND: { http: 404, exit: 2, summary: 'The rubric file or id does not exist.' },
  RUBRIC_INVALID: {
    http: 400,
    exit: 2,
    summary: 'The rubric fails validation; the message names the file, field path and expectation.',
  },
  RUBRIC_TESTS_INVALID: {
    http: 400,
    exit: 2,
    summary: 'The hidden tests cannot be collected (syntax error, no tests, unknown weight or edge-case name).',
  },
  REFERENCE_FAILED: {
    http: 422,
    exit: 3,
    summary:
      "The rubric's reference solution does not pass every hidden test (or lacks the entry): no class is graded against it.",
  },
  INTAKE_EMPTY: { http: 400, exit: 0, summary: 'The submission holds no gradable file.' },
  INTAKE_ENTRY_MISSING: {
    http: 400,
    exit: 0,
    summary:
      "The submission has no file the rubric's entry resolves to (the message names the file expected and those found).",
  },
  INTAKE_SYMLINK: { http: 400, exit: 0, summary: 'The submission contains a symbolic link.' },
  INTAKE_HARDLINK: { http: 400, exit: 0, summary: 'The submission contains a file with more than one hard link.' },
  INTAKE_SPECIAL_FILE: { http: 400, exit: 0, summary: 'The submission contains a device, FIFO or socket.' },
  INTAKE_PATH_INVALID: {
    http: 400,
    exit: 0,
    summary: 'A file path is absolute, escapes the submission, or uses forbidden characters.',
  },
  INTAKE_FORBIDDEN_FILE: {
    http: 400,
    exit: 0,
    summary: 'The submission contains node_modules, a package manager config, or a native addon.',
  },
  INTAKE_BINARY: { http: 400, exit: 0, summary: 'A file is binary (contains NUL bytes).' },
  INTAKE_NOT_UTF8: { http: 400, exit: 0, summary: 'A file is not valid UTF-8 text.' },
  INTAKE_TOO_MANY_FILES: { http: 413, exit: 0, summary: 'The submission has more files than the rubric allows.' },
  INTAKE_TOO_LARGE: { http: 413, exit: 0, summary: 'The submission (or one file) is larger than the rubric allows.' },
  AUTH_MISSING: { http: 401, exit: 2, summary: 'The request has no bearer API key.' },
  AUTH_INVALID: { http: 403, exit: 2, summary: 'The bearer API key is not one of the configured keys.' },
  NOT_FOUND: { http: 404, exit: 2, summary: 'No such route, batch or report.' },
  BODY_INVALID: {
    http: 400,
    exit: 2,
    summary: 'The request body fails validation; the message names each field path and what was expected.',
  },
  ARCHIVE_INVALID: {
    http: 400,
    exit: 2,
    summary:
      'An archive or LMS download is refused as a whole: unreadable, an entry escaping it, over the size or entry limit (an archive bomb), or not in the format named by --from.',
  },
  BODY_TOO_LARGE: { http: 413, exit: 2, summary: 'The request body is larger than the server accepts.' },
  RATE_LIMITED: {
    http: 429,
    exit: 2,
    summary: 'Too many requests for this API key; Retry-After says when to come back.',
  },
  QUEUE_FULL: {
    http: 503,
    exit: 4,
    summary: 'Every grading slot and queue place is taken; Retry-After says when to come back.',
  },
  SHUTTING_DOWN: { http: 503, exit: 4, summary: 'The server is draining for shutdown and takes no new work.' },
  SANDBOX_UNAVAILABLE: {
    http: 503,
    exit: 4,
    summary: 'No sandbox backend that can isolate is available; the message says what to install.',
  },
  SANDBOX_FAILED: {
    http: 500,
    exit: 5,
    summary: 'The sandbox itself failed (not the submission): spawn error or broken harness protocol.',
  },
  QUEUE_UNAVAILABLE: {
    http: 503,
    exit: 4,
    summary:
      'The job queue (Redis) cannot be reached, or no worker took a job in time; the message names the redacted URL.',
  },
  JOB_INVALID: {
    http: 400,
    exit: 5,
    summary:
      'Job data read from the queue fails validation (wrong shape, too large, or a rubric whose content does not match its hash).',
  },
  WORKER_LOST: {
    http: 500,
    exit: 5,
    summary:
      'The job took its worker down more often than allowed (killed, crashed or stalled); it is not retried again.',
  },
  VERIFY_FAILED: {
    http: 422,
    exit: 6,
    summary: 'A report does not match its own evidence or its inputs; the message lists each difference.',
  },
  ANALYSIS_FAILED: {
    http: 500,
    exit: 5,
    summary:
      'Lint, metrics or type checking could not finish for a reason of the grader (an analysis thread crashed or stalled without using CPU); the submission gets an error report and is graded again on the next run.',
  },
  OUTPUT_FAILED: { http: 500, exit: 5, summary: 'A report could not be written.' },
  STORE_UNAVAILABLE: {
    http: 503,
    exit: 4,
    summary: 'The grading-history database cannot be reached or opened; the message names it (password redacted).',
  },
  STORE_SCHEMA: {
    http: 500,
    exit: 2,
    summary:
      "The grading-history database's schema is newer than this evigrade (upgrade it) or was not made by evigrade.",
  },
  INTERNAL: { http: 500, exit: 70, summary: 'An unexpected internal error.' },
} as const satisfies Record<string, { http: number; exit: ExitCode; summary: string }>;

export type ErrorCode = keyof typeof ERROR_TABLE;
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_TABLE) as [ErrorCode, ...ErrorCode[]]);

export class EvigradeError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'EvigradeError';
    this.code = code;
    this.details = details;
  }
  get http(): number {
    return ERROR_TABLE[this.code].http;
  }
}

export const isEvigradeError = (e: unknown): e is EvigradeError => e instanceof EvigradeError;

/** Any thrown value as an EvigradeError: ours as it is, anything else an INTERNAL error carrying its message. */
export const asEvigradeError = (e: unknown): EvigradeError =>
  isEvigradeError(e) ? e : new EvigradeError('INTERNAL', e instanceof Error ? e.message : String(e));

/** Intake errors are the student's data, not the machine's failure. */
export const isSubmissionError = (code: ErrorCode): boolean => code.startsWith('INTAKE_');
