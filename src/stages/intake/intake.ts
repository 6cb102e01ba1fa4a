// Intake, the one set of rules every way in shares: a folder (adapters/fs/intake.ts reads it into entries,
// following nothing), a file map (POST /grade, POST /batches, a queue job), an archive or an LMS download.
// Entries in, a Submission or an INTAKE_* rejection out; nothing here touches the disk.
import { extname } from 'node:path';
import { EvigradeError, type ErrorCode } from '../../domain/errors.js';
import { languageOf } from '../../domain/languages.js';
import type { Limits, Rubric } from '../../domain/rubric.js';
import { SAFE_SEGMENT, type Submission, type SubmissionFile } from '../../domain/submission.js';
import { canonicalJson, sha256 } from '../../util/hash.js';

/** Present in real student folders, meaningless or risky inside a job: kept out, listed in the report. */
export const IGNORED_NAMES = new Set([
  '.git',
  '.DS_Store',
  '__MACOSX',
  'Thumbs.db',
  'node_modules',
  'package.json',
  'package-lock.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.env',
  '.exercism',
  '.vscode',
  '.idea',
]);
export const FORBIDDEN_EXT = new Set(['.node', '.so', '.dll', '.dylib', '.exe', '.wasm']);
/** Folders a submission may nest: a file has at most MAX_DEPTH + 1 path segments. */
export const MAX_DEPTH = 8;

/** What a submission is checked against: the rubric's limits and entry. */
export interface IntakeRules {
  readonly limits: Limits;
  readonly entry: string;
  readonly language: string;
}

/**
 * One thing found in a submission. `file` carries its bytes (a folder, an archive) or text (a file map);
 * `size` alone when a reader stopped before an over-limit file. `skipped` is an ignored name not read,
 * `deep` a folder not entered because it is nested too deep. Links and devices carry no data.
 */
export interface IntakeEntry {
  readonly path: string;
  readonly kind: 'file' | 'symlink' | 'hardlink' | 'special' | 'skipped' | 'deep';
  readonly data?: Buffer | string;
  readonly size?: number;
  /** A hard link's count, when the reader knows it. */
  readonly links?: number;
  /** How messages name the file (default `"<path>"`): the student's own name when a single file is renamed. */
  readonly label?: string;
  /** Appended to messages: where the file came from (`(x in the download)`). */
  readonly note?: string;
}

export const intakeRules = (rubric: Rubric): IntakeRules => ({
  limits: rubric.spec.limits,
  entry: rubric.spec.entry,
  language: rubric.spec.language,
});

/** An intake rejection naming the submission: the batch goes on, the report says why. */
export const intakeFail = (code: ErrorCode, id: string, message: string): never => {
  throw new EvigradeError(code, `submission "${id}": ${message}`, { submission: id });
};

// JSON can carry "\ud800" alone; such a string has no UTF-8 encoding.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const KIND_TEXT = { symlink: 'is a symbolic link', special: 'is a device, FIFO or socket' } as const;

export const isIgnoredName = (name: string): boolean => IGNORED_NAMES.has(name);

/** Segment by segment, as a folder walk meets them (`a/x` before `a.js`). */
export function byPath(a: string, b: string): number {
  const [x, y] = [a.split('/'), b.split('/')];
  for (let i = 0; i < Math.min(x.length, y.length); i++)
    if (x[i] !== y[i]) return (x[i] as string) < (y[i] as string) ? -1 : 1;
  return x.length - y.length;
}

/** The path rules: relative, `/`-separated, inside the submission, safe names. Null for an ignored path. */
export function checkPath(path: string, id: string): string | null {
  const quoted = JSON.stringify(path);
  if (path.startsWith('/') || path.includes('\\') || path.includes('\0'))
    intakeFail('INTAKE_PATH_INVALID', id, `path ${quoted} must be relative, with "/" separators`);
  const parts = path.split('/');
  for (const seg of parts) {
    if (seg === '..' || seg === '.' || seg === '')
      intakeFail('INTAKE_PATH_INVALID', id, `path ${quoted} escapes the submission or has an empty segment`);
    if (isIgnoredName(seg)) return null;
    if (!SAFE_SEGMENT.test(seg))
      intakeFail('INTAKE_PATH_INVALID', id, `path ${quoted} contains characters that are not allowed`);
  }
  if (parts.length > MAX_DEPTH + 1)
    intakeFail('INTAKE_PATH_INVALID', id, `path ${quoted} is nested deeper than ${MAX_DEPTH} folders`);
  return path;
}

const shown = (e: IntakeEntry): string => e.label ?? `"${e.path}"`;
const noted = (e: IntakeEntry): string => (e.note ? ` ${e.note}` : '');

const failer =
  (e: IntakeEntry, id: string) =>
  (code: ErrorCode, what: string): never =>
    intakeFail(code, id, `${shown(e)} ${what}${noted(e)}`);

/** A file's kind: no links, devices, folders nested too deep or native binaries. */
export function checkKind(e: IntakeEntry, id: string): void {
  const fail = failer(e, id);
  if (e.kind === 'symlink' || e.kind === 'special')
    fail(e.kind === 'symlink' ? 'INTAKE_SYMLINK' : 'INTAKE_SPECIAL_FILE', KIND_TEXT[e.kind]);
  if (e.kind === 'hardlink')
    fail('INTAKE_HARDLINK', e.links ? `has ${e.links} hard links` : 'has more than one hard link');
  if (e.kind === 'deep') fail('INTAKE_PATH_INVALID', `is nested deeper than ${MAX_DEPTH} folders`);
  if (FORBIDDEN_EXT.has(extname(e.path).toLowerCase())) fail('INTAKE_FORBIDDEN_FILE', 'is a native binary or addon');
}

/** A file's content: text, no NUL bytes, valid UTF-8 (a string from JSON may hold a lone surrogate). */
export function decodeFile(e: IntakeEntry, id: string): SubmissionFile {
  const fail = failer(e, id);
  const data = e.data ?? '';
  if (typeof data === 'string') {
    if (LONE_SURROGATE.test(data)) fail('INTAKE_NOT_UTF8', 'is not valid UTF-8 text (lone surrogate)');
    if (data.includes('\0')) fail('INTAKE_BINARY', 'is binary (contains NUL bytes)');
    const buf = Buffer.from(data, 'utf8');
    return { path: e.path, content: data, sha256: sha256(buf), bytes: buf.length };
  }
  if (data.includes(0)) fail('INTAKE_BINARY', 'is binary (contains NUL bytes)');
  try {
    return {
      path: e.path,
      content: new TextDecoder('utf-8', { fatal: true }).decode(data),
      sha256: sha256(data),
      bytes: data.length,
    };
  } catch {
    return fail('INTAKE_NOT_UTF8', 'is not valid UTF-8 text');
  }
}

const sizeOf = (e: IntakeEntry): number =>
  e.size ?? (typeof e.data === 'string' ? Buffer.byteLength(e.data) : (e.data?.length ?? 0));

/** Every entry in path order: ignored names set aside, then path, kind, limits (when given) and content checked. */
export function intakeEntries(
  id: string,
  entries: readonly IntakeEntry[],
  limits?: Limits,
): { files: SubmissionFile[]; ignored: string[] } {
  const files: SubmissionFile[] = [];
  const ignored: string[] = [];
  let bytes = 0;
  for (const e of [...entries].sort((a, b) => byPath(a.path, b.path))) {
    if (e.kind === 'skipped' || checkPath(e.path, id) === null) {
      ignored.push(e.path);
      continue;
    }
    checkKind(e, id);
    const size = sizeOf(e);
    if (limits && (size > limits.max_bytes || bytes + size > limits.max_bytes))
      intakeFail('INTAKE_TOO_LARGE', id, `more than ${limits.max_bytes} bytes (at ${shown(e)})`);
    if (limits && files.length + 1 > limits.max_files)
      intakeFail('INTAKE_TOO_MANY_FILES', id, `more than ${limits.max_files} files`);
    const file = decodeFile(e, id);
    bytes += file.bytes;
    files.push(file);
  }
  return { files, ignored };
}

/**
 * The intake stage: every entry checked (path, kind, content), the rubric's limits counted, then the
 * entry file required. Throws an INTAKE_* EvigradeError naming the submission and the file.
 */
export function intake(id: string, entries: readonly IntakeEntry[], rules: IntakeRules, name?: string): Submission {
  const { files, ignored } = intakeEntries(id, entries, rules.limits);
  if (files.length === 0) intakeFail('INTAKE_EMPTY', id, 'no gradable files');
  const sub: Submission = {
    id,
    ...(name !== undefined && name !== id && { name }),
    files,
    ignored,
    sha256: sha256(canonicalJson(files.map((f) => [f.path, f.sha256]))),
  };
  requireEntry(sub, rules.entry, rules.language);
  return sub;
}

const SHOWN = 5;

/**
 * The entry without `./`, and for a language that imports modules by name (Python: `import leap`) without its
 * extension, so `./leap.py` and `./leap` name the same files. Node resolves a specifier with an extension to that
 * exact file first ('' among its suffixes), so a JavaScript entry keeps it.
 */
export function entryBase(entry: string, language: string): string {
  const base = entry.replace(/^\.\//, '');
  const { entrySuffixes, entrySuffix } = languageOf(language);
  return !entrySuffixes.includes('') && base.endsWith(entrySuffix) ? base.slice(0, -entrySuffix.length) : base;
}

/** The submission paths that satisfy the entry (`./leap` → `leap.js`, `leap/index.js`, … ). */
export function entryCandidates(entry: string, language: string): string[] {
  const base = entryBase(entry, language);
  // What the harness resolves an entry to (sandbox/harness/realm.cjs, ENTRY_EXTENSIONS; Python's import); TypeScript before stripping.
  return languageOf(language).entrySuffixes.map((s) => `${base}${s}`);
}

/**
 * INTAKE_ENTRY_MISSING when no file of the submission is one the entry resolves to, naming the file expected
 * and what was there: graded, it would fail every test with "Cannot find module '/job/sub/leap'", which tells
 * the student nothing about what to rename.
 */
export function requireEntry(sub: Submission, entry: string, language: string): void {
  const candidates = entryCandidates(entry, language);
  if (sub.files.some((f) => candidates.includes(f.path))) return;
  const names = sub.files.map((f) => f.path);
  const found =
    names.length > SHOWN ? `${names.slice(0, SHOWN).join(', ')} and ${names.length - SHOWN} more` : names.join(', ');
  const base = entry.replace(/^\.\//, '');
  const expected = /\.[A-Za-z]+$/.test(base) ? base : `${base}${languageOf(language).entrySuffix}`;
  intakeFail(
    'INTAKE_ENTRY_MISSING',
    sub.id,
    `the rubric's entry "${entry}" needs ${expected} at the top of the submission; found ${found || 'no file'}`,
  );
}

/**
 * A file map (an HTTP request, a queue job, a stored batch, an LMS download) through intake; `ignored`: what an
 * archive or a download already left out, listed before what intake leaves out.
 */
export function intakeMap(
  id: string,
  files: Readonly<Record<string, string>>,
  rubric: Rubric,
  from: { readonly name?: string | undefined; readonly ignored?: readonly string[] | undefined } = {},
): Submission {
  const sub = intake(id, mapEntries(files), intakeRules(rubric), from.name);
  return { ...sub, ignored: [...(from.ignored ?? []), ...sub.ignored] };
}

/** A file map (`{ "<path>": "<text>" }`) as intake entries. */
export const mapEntries = (files: Readonly<Record<string, string>>): IntakeEntry[] =>
  Object.entries(files).map(([path, data]) => ({ path, kind: 'file', data }));

/** A submission's files back as a file map (what a queue job or a stored batch carries). */
export const fileMapOf = (sub: Submission): Record<string, string> =>
  Object.fromEntries(sub.files.map((f) => [f.path, f.content]));
