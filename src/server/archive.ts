import { gunzipSync } from 'node:zlib';
import { extract, type Header } from 'tar-stream';
import { Readable } from 'node:stream';
import { EvigradeError, type ErrorCode } from '../domain/errors.js';
import { ARCHIVE_LIMITS } from '../adapters/archive/entries.js';

export interface ArchivedSubmission {
  readonly id: string;
  readonly files: Record<string, string>;
  /** Set when this submission broke an intake rule: it becomes a rejected report, the batch goes on. */
  readonly error: { code: ErrorCode; message: string } | null;
}

export { ARCHIVE_LIMITS };
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const TYPE_ERRORS: Partial<Record<string, ErrorCode>> = { symlink: 'INTAKE_SYMLINK', link: 'INTAKE_HARDLINK' };

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

/**
 * Reads a tar (or gzipped tar) of submissions under the CLI's intake rules:
 * links, devices and FIFOs reject their submission; paths escaping the
 * archive, too many entries or too many bytes (archive bombs) reject the upload.
 */
export async function submissionsFromArchive(body: Buffer, entryFile: string): Promise<ArchivedSubmission[]> {
  let tar = body;
  if (body[0] === 0x1f && body[1] === 0x8b) {
    try {
      tar = gunzipSync(body, { maxOutputLength: ARCHIVE_LIMITS.maxBytes });
    } catch (e) {
      throw archiveError(`gzip: ${(e as Error).message} (limit ${ARCHIVE_LIMITS.maxBytes} bytes)`);
    }
  }
  const subs = new Map<string, { files: Record<string, string>; error: ArchivedSubmission['error'] }>();
  const get = (id: string) => subs.get(id) ?? subs.set(id, { files: {}, error: null }).get(id)!;
  const ex = extract();
  let entries = 0;
  const done = new Promise<void>((resolve, reject) => {
    ex.on('entry', (header: Header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => { chunks.push(c as Buffer); });
      stream.on('end', () => {
        try {
          if (++entries > ARCHIVE_LIMITS.maxEntries) throw archiveError(`more than ${ARCHIVE_LIMITS.maxEntries} entries`);
          take(header, Buffer.concat(chunks));
          next();
        } catch (e) {
          reject(e);
        }
      });
      stream.resume();
    });
    ex.on('finish', resolve);
    ex.on('error', (e: Error) => reject(archiveError(e.message)));
  });
  function take(h: Header, data: Buffer): void {
    if (h.type === 'directory') return;
    const [id, path] = split(h.name, entryFile);
    if (!ID.test(id)) throw archiveError(`"${id}" is not a safe submission id`);
    const sub = get(id);
    if (sub.error) return;
    if (h.type !== 'file' && h.type !== 'contiguous-file') {
      const code = TYPE_ERRORS[h.type ?? ''] ?? 'INTAKE_SPECIAL_FILE';
      sub.error = { code, message: `submission "${id}": "${path}" is a ${h.type} entry` };
      return;
    }
    try {
      sub.files[path] = new TextDecoder('utf-8', { fatal: true }).decode(data);
    } catch {
      sub.error = { code: 'INTAKE_NOT_UTF8', message: `submission "${id}": "${path}" is not valid UTF-8 text` };
    }
  }
  Readable.from([tar]).pipe(ex);
  await done;
  return [...subs.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, s]) => ({ id, files: s.files, error: s.error }));
}
