import { gunzipSync } from 'node:zlib';
import { extract, type Header } from 'tar-stream';
import { Readable } from 'node:stream';
import { ARCHIVE_LIMITS, checkEntryPath } from '../adapters/archive/entries.js';
import { isZip, readZip } from '../adapters/archive/zip.js';
import { EvigradeError, type ErrorCode } from '../domain/errors.js';
import type { LmsIdentity, LmsSystem, RawEntry } from '../domain/lms.js';
import { resolveFormat } from '../stages/lms/registry.js';
import { lmsSubmissions } from '../stages/lms/submissions.js';

export { ARCHIVE_LIMITS };

export interface ArchivedSubmission {
  readonly id: string;
  readonly files: Record<string, string>;
  /** Set when this submission broke an intake rule: it becomes a rejected report, the batch goes on. */
  readonly error: { code: ErrorCode; message: string } | null;
  /** Who the submission belongs to, when the archive is an LMS download (`?from=`). */
  readonly lms?: LmsIdentity;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const TYPE_KINDS: Partial<Record<string, RawEntry['kind']>> = { file: 'file', 'contiguous-file': 'file', symlink: 'symlink', link: 'hardlink' };
const KIND_ERRORS: Record<Exclude<RawEntry['kind'], 'file'>, ErrorCode> = { symlink: 'INTAKE_SYMLINK', hardlink: 'INTAKE_HARDLINK', special: 'INTAKE_SPECIAL_FILE' };

function archiveError(message: string): EvigradeError {
  return new EvigradeError('BODY_INVALID', `archive: ${message}`);
}

/** `<id>/<path>` → [id, path]; a file at the top level is a single-file submission named after it. */
function split(name: string, entryFile: string): [string, string] {
  const clean = name.replace(/^\.\//, '');
  if (clean.startsWith('/') || clean.split('/').includes('..')) throw archiveError(`entry "${name}" is absolute or escapes the archive`);
  const slash = clean.indexOf('/');
  if (slash < 0) return [clean.replace(/\.[^.]+$/, ''), entryFile];
  return [clean.slice(0, slash), clean.slice(slash + 1)];
}

/** A tar's entries, counted against the limits as they come; directories dropped, links and devices kept as such. */
async function tarEntries(tar: Buffer): Promise<{ entry: RawEntry; name: string; type: string }[]> {
  const out: { entry: RawEntry; name: string; type: string }[] = [];
  let count = 0;
  const ex = extract();
  const done = new Promise<void>((resolve, reject) => {
    ex.on('entry', (header: Header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => { chunks.push(c as Buffer); });
      stream.on('end', () => {
        if (++count > ARCHIVE_LIMITS.maxEntries) return reject(archiveError(`more than ${ARCHIVE_LIMITS.maxEntries} entries`));
        if (header.type !== 'directory') {
          const type = header.type ?? 'file';
          out.push({ entry: { path: header.name, kind: TYPE_KINDS[type] ?? 'special', data: Buffer.concat(chunks) }, name: header.name, type });
        }
        next();
      });
      stream.resume();
    });
    ex.on('finish', resolve);
    ex.on('error', (e: Error) => reject(archiveError(e.message)));
  });
  Readable.from([tar]).pipe(ex);
  await done;
  return out;
}

/** The plain layout: one folder (or one top-level file) per submission, named by its id. */
function byFolder(entries: readonly { entry: RawEntry; type: string }[], entryFile: string): ArchivedSubmission[] {
  const subs = new Map<string, { files: Record<string, string>; error: ArchivedSubmission['error'] }>();
  for (const { entry, type } of entries) {
    const [id, path] = split(entry.path, entryFile);
    if (!ID.test(id)) throw archiveError(`"${id}" is not a safe submission id`);
    const sub = subs.get(id) ?? subs.set(id, { files: {}, error: null }).get(id)!;
    if (sub.error) continue;
    if (entry.kind !== 'file') {
      sub.error = { code: KIND_ERRORS[entry.kind], message: `submission "${id}": "${path}" is a ${type} entry` };
      continue;
    }
    try {
      sub.files[path] = new TextDecoder('utf-8', { fatal: true }).decode(entry.data);
    } catch {
      sub.error = { code: 'INTAKE_NOT_UTF8', message: `submission "${id}": "${path}" is not valid UTF-8 text` };
    }
  }
  return [...subs.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, s]) => ({ id, files: s.files, error: s.error }));
}

/**
 * Reads a tar, gzipped tar or zip of submissions under the CLI's intake rules:
 * links, devices and FIFOs reject their submission; paths escaping the
 * archive, too many entries or too many bytes (archive bombs) reject the upload.
 * With `from`, the archive is that LMS's download (see `grade --from`).
 */
export async function submissionsFromArchive(body: Buffer, entryFile: string, from: LmsSystem | 'auto' | null = null): Promise<ArchivedSubmission[]> {
  let entries: { entry: RawEntry; name: string; type: string }[];
  if (isZip(body)) {
    entries = (await readZip(body, 'archive', ARCHIVE_LIMITS)).map((entry) => ({ entry, name: entry.path, type: entry.kind }));
  } else {
    let tar = body;
    if (body[0] === 0x1f && body[1] === 0x8b) {
      try {
        tar = gunzipSync(body, { maxOutputLength: ARCHIVE_LIMITS.maxBytes });
      } catch (e) {
        throw archiveError(`gzip: ${(e as Error).message} (limit ${ARCHIVE_LIMITS.maxBytes} bytes)`);
      }
    }
    entries = await tarEntries(tar);
  }
  if (!from) return byFolder(entries, entryFile);
  // The zip reader's path rule for tar entries too, before any naming is read.
  const clean = entries.map(({ entry }) => ({ ...entry, path: checkEntryPath('archive', entry.path) }));
  const { format, entries: root } = resolveFormat(clean, from, 'archive');
  return lmsSubmissions(format.parse(root, { entryFile }).attempts, 'latest').map((s) => ({ id: s.id, files: s.files, error: s.error, lms: s.lms }));
}
