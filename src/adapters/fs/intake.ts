import { SAFE_SEGMENT } from '../../domain/submission.js';
import { languageOf } from '../../domain/languages.js';
import { constants } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { EvigradeError, type ErrorCode } from '../../domain/errors.js';
import type { Limits } from '../../domain/rubric.js';
import type { Submission, SubmissionFile } from '../../domain/submission.js';
import { requireEntry } from '../../stages/entry.js';
import { canonicalJson, sha256 } from '../../util/hash.js';

/** Present in real student folders, meaningless or risky inside a job: kept out, listed in the report. */
export const IGNORED_NAMES = new Set(['.git', '.DS_Store', '__MACOSX', 'Thumbs.db', 'node_modules', 'package.json', 'package-lock.json',
  'yarn.lock', 'pnpm-lock.yaml', '.npmrc', '.yarnrc', '.yarnrc.yml', '.env', '.exercism', '.vscode', '.idea']);
export const FORBIDDEN_EXT = new Set(['.node', '.so', '.dll', '.dylib', '.exe', '.wasm']);
export { SAFE_SEGMENT };
export const MAX_DEPTH = 8;

/** An intake rejection naming the submission: the batch goes on, the report says why. */
export const fail = (code: ErrorCode, id: string, message: string): never => {
  throw new EvigradeError(code, `submission "${id}": ${message}`, { submission: id });
};

interface Walk {
  readonly id: string;
  readonly limits: Limits;
  readonly files: SubmissionFile[];
  readonly ignored: string[];
  bytes: number;
}

/** `shown`: the name messages use, the student's own when a single file is renamed to the entry. */
async function readRegular(abs: string, rel: string, w: Walk, shown = `"${rel}"`): Promise<void> {
  if (FORBIDDEN_EXT.has(extname(rel).toLowerCase())) fail('INTAKE_FORBIDDEN_FILE', w.id, `${shown} is a native binary or addon`);
  // O_NOFOLLOW + O_NONBLOCK: never follow a link swapped in after lstat, never hang on a FIFO.
  const fh = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => fail('INTAKE_SPECIAL_FILE', w.id, `${shown} cannot be opened as a regular file`));
  try {
    const st = await fh.stat();
    if (!st.isFile()) fail('INTAKE_SPECIAL_FILE', w.id, `${shown} is not a regular file`);
    if (st.nlink > 1) fail('INTAKE_HARDLINK', w.id, `${shown} has ${st.nlink} hard links`);
    if (st.size > w.limits.max_bytes || w.bytes + st.size > w.limits.max_bytes) {
      fail('INTAKE_TOO_LARGE', w.id, `more than ${w.limits.max_bytes} bytes (at ${shown})`);
    }
    if (w.files.length + 1 > w.limits.max_files) fail('INTAKE_TOO_MANY_FILES', w.id, `more than ${w.limits.max_files} files`);
    const buf = await fh.readFile();
    if (buf.length > w.limits.max_bytes) fail('INTAKE_TOO_LARGE', w.id, `${shown} grew while being read`);
    if (buf.includes(0)) fail('INTAKE_BINARY', w.id, `${shown} is binary (contains NUL bytes)`);
    let content: string;
    try {
      content = new TextDecoder('utf-8', { fatal: true }).decode(buf);
    } catch {
      return fail('INTAKE_NOT_UTF8', w.id, `${shown} is not valid UTF-8 text`);
    }
    w.bytes += buf.length;
    w.files.push({ path: rel, content, sha256: sha256(buf), bytes: buf.length });
  } finally {
    await fh.close();
  }
}

async function walk(absDir: string, relDir: string, depth: number, w: Walk): Promise<void> {
  if (depth > MAX_DEPTH) fail('INTAKE_PATH_INVALID', w.id, `folders nested deeper than ${MAX_DEPTH} levels at "${relDir}"`);
  const entries = await readdir(absDir);
  entries.sort();
  for (const name of entries) {
    const rel = relDir ? `${relDir}/${name}` : name;
    if (IGNORED_NAMES.has(name)) {
      w.ignored.push(rel);
      continue;
    }
    if (!SAFE_SEGMENT.test(name) || name === '.' || name === '..') {
      fail('INTAKE_PATH_INVALID', w.id, `file name ${JSON.stringify(name)} contains characters that are not allowed`);
    }
    const abs = join(absDir, name);
    const st = await lstat(abs);
    if (st.isSymbolicLink()) fail('INTAKE_SYMLINK', w.id, `"${rel}" is a symbolic link`);
    else if (st.isDirectory()) await walk(abs, rel, depth + 1, w);
    else if (st.isFile()) await readRegular(abs, rel, w);
    else fail('INTAKE_SPECIAL_FILE', w.id, `"${rel}" is a device, FIFO or socket`);
  }
}

/** The entry's file name, for single-file submissions: `./leap` → `leap.js` (`leap.ts` for TypeScript, `leap.py` for Python). */
export const entryFileName = (entry: string, language = 'javascript'): string => {
  const b = basename(entry);
  return extname(b) ? b : `${b}${languageOf(language).entrySuffix}`;
};

/**
 * Reads one submission (a folder, or a single file named after the student)
 * without following links, enforcing the rubric's limits. Throws an INTAKE_*
 * error naming what is wrong; the caller turns that into a rejected report.
 */
export async function readSubmission(path: string, id: string, limits: Limits, entry: string, language = 'javascript'): Promise<Submission> {
  const w: Walk = { id, limits, files: [], ignored: [], bytes: 0 };
  const st = await lstat(path);
  if (st.isSymbolicLink()) fail('INTAKE_SYMLINK', id, 'the submission itself is a symbolic link');
  if (st.isDirectory()) await walk(path, '', 0, w);
  else if (st.isFile()) {
    const name = entryFileName(entry, language);
    await readRegular(path, name, w, basename(path) === name ? `"${name}"` : `"${basename(path)}" (graded as ${name})`);
  } else fail('INTAKE_SPECIAL_FILE', id, 'the submission is a device, FIFO or socket');
  if (w.files.length === 0) fail('INTAKE_EMPTY', id, 'no gradable files');
  const files = w.files;
  const sub = { id, files, ignored: w.ignored, sha256: sha256(canonicalJson(files.map((f) => [f.path, f.sha256]))) };
  requireEntry(sub, entry, language);
  return sub;
}

/** Submission ids come from folder or file names; the same rules keep them safe as report file names. */
export function submissionIdFromName(name: string, isFile: boolean): string | null {
  const id = isFile ? name.slice(0, name.length - extname(name).length) || name : name;
  return SAFE_SEGMENT.test(id) && !id.startsWith('.') ? id : null;
}
