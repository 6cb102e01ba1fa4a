import { extname } from 'node:path';
import { fail, FORBIDDEN_EXT, IGNORED_NAMES, MAX_DEPTH, SAFE_SEGMENT } from '../adapters/fs/intake.js';
import type { Limits } from '../domain/rubric.js';
import type { Submission, SubmissionFile } from '../domain/submission.js';
import { canonicalJson, sha256 } from '../util/hash.js';

// JSON can carry "\ud800" alone; such a string has no UTF-8 encoding.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;


/** The path rules of folder intake, applied to a name given over HTTP. Returns null for ignored files. */
function checkPath(path: string, id: string): string | null {
  if (path.startsWith('/') || path.includes('\\') || path.includes('\0')) fail('INTAKE_PATH_INVALID', id, `path ${JSON.stringify(path)} must be relative, with "/" separators`);
  const parts = path.split('/');
  if (parts.length > MAX_DEPTH + 1) fail('INTAKE_PATH_INVALID', id, `path ${JSON.stringify(path)} is nested deeper than ${MAX_DEPTH} folders`);
  for (const seg of parts) {
    if (seg === '..' || seg === '.' || seg === '') fail('INTAKE_PATH_INVALID', id, `path ${JSON.stringify(path)} escapes the submission or has an empty segment`);
    if (IGNORED_NAMES.has(seg)) return null;
    if (!SAFE_SEGMENT.test(seg)) fail('INTAKE_PATH_INVALID', id, `path ${JSON.stringify(path)} contains characters that are not allowed`);
  }
  if (FORBIDDEN_EXT.has(extname(path).toLowerCase())) fail('INTAKE_FORBIDDEN_FILE', id, `"${path}" is a native binary or addon`);
  return path;
}

/**
 * Intake for a file map (`{ "<path>": "<text>" }`, as POST /grade sends):
 * the same rules and error codes as a folder on disk.
 */
export function submissionFromMap(files: Readonly<Record<string, string>>, id: string, limits: Limits): Submission {
  const out: SubmissionFile[] = [];
  const ignored: string[] = [];
  let bytes = 0;
  for (const [raw, content] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const path = checkPath(raw, id);
    if (path === null) {
      ignored.push(raw);
      continue;
    }
    if (LONE_SURROGATE.test(content)) fail('INTAKE_NOT_UTF8', id, `"${path}" is not valid UTF-8 text (lone surrogate)`);
    if (content.includes('\0')) fail('INTAKE_BINARY', id, `"${path}" is binary (contains NUL bytes)`);
    const buf = Buffer.from(content, 'utf8');
    bytes += buf.length;
    if (bytes > limits.max_bytes) fail('INTAKE_TOO_LARGE', id, `more than ${limits.max_bytes} bytes (at "${path}")`);
    if (out.length + 1 > limits.max_files) fail('INTAKE_TOO_MANY_FILES', id, `more than ${limits.max_files} files`);
    out.push({ path, content, sha256: sha256(buf), bytes: buf.length });
  }
  if (out.length === 0) fail('INTAKE_EMPTY', id, 'no gradable files');
  return { id, files: out, ignored, sha256: sha256(canonicalJson(out.map((f) => [f.path, f.sha256]))) };
}
