import { gunzipSync } from 'node:zlib';
import { extract, type Header } from 'tar-stream';
import { Readable } from 'node:stream';
import { entryFileName } from '../adapters/fs/intake.js';
import { ARCHIVE_LIMITS, archiveInvalid, checkEntryPath } from '../adapters/archive/entries.js';
import { isZip, readZip } from '../adapters/archive/zip.js';
import { asEvigradeError } from '../domain/errors.js';
import type { LmsSystem, RawEntry } from '../domain/lms.js';
import type { Rubric } from '../domain/rubric.js';
import { fileMapOf, intake, intakeRules, type IntakeEntry } from '../stages/intake/intake.js';
import { nameSubmissions, notASubmission } from '../stages/intake/intake-names.js';
import { resolveFormat } from '../stages/lms/registry.js';
import { lmsSubmissions } from '../stages/lms/submissions.js';
import type { StoredSubmission } from './batches.js';

export { ARCHIVE_LIMITS };

const TYPE_KINDS: Partial<Record<string, RawEntry['kind']>> = {
  file: 'file',
  'contiguous-file': 'file',
  symlink: 'symlink',
  link: 'hardlink',
};

/** A tar's entries, counted against the limits as they come; directories dropped, links and devices kept as such. */
async function tarEntries(tar: Buffer): Promise<RawEntry[]> {
  const out: RawEntry[] = [];
  let count = 0;
  const ex = extract();
  const done = new Promise<void>((resolve, reject) => {
    ex.on('entry', (header: Header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => {
        chunks.push(c as Buffer);
      });
      stream.on('end', () => {
        if (++count > ARCHIVE_LIMITS.maxEntries)
          return reject(archiveInvalid('archive', `more than ${ARCHIVE_LIMITS.maxEntries} entries`));
        if (header.type !== 'directory')
          out.push({
            path: header.name,
            kind: TYPE_KINDS[header.type ?? 'file'] ?? 'special',
            data: Buffer.concat(chunks),
          });
        next();
      });
      stream.resume();
    });
    ex.on('finish', resolve);
    ex.on('error', (e: Error) => reject(archiveInvalid('archive', e.message)));
  });
  Readable.from([tar]).pipe(ex);
  await done;
  return out;
}

/** The entries of a tar (gzipped or not) or zip, paths checked: absolute or escaping names refuse the upload. */
async function archiveEntries(body: Buffer): Promise<RawEntry[]> {
  if (isZip(body)) return readZip(body, 'archive', ARCHIVE_LIMITS);
  let tar = body;
  if (body[0] === 0x1f && body[1] === 0x8b) {
    try {
      tar = gunzipSync(body, { maxOutputLength: ARCHIVE_LIMITS.maxBytes });
    } catch (e) {
      throw archiveInvalid('archive', `gzip: ${(e as Error).message} (limit ${ARCHIVE_LIMITS.maxBytes} bytes)`);
    }
  }
  // The zip reader's path rule for tar entries too, before any naming is read.
  return (await tarEntries(tar))
    .map((e) => ({ ...e, path: checkEntryPath('archive', e.path) }))
    .filter((e) => e.path !== '');
}

/** The plain layout: one folder (or one top-level file, graded as the entry file) per submission, named by it. */
function byFolder(entries: readonly RawEntry[], rubric: Rubric): StoredSubmission[] {
  const entryFile = entryFileName(rubric.spec.entry, rubric.spec.language);
  const groups = new Map<string, IntakeEntry[]>();
  for (const e of entries) {
    if (notASubmission(e.path.split('/')[0] as string)) continue;
    const slash = e.path.indexOf('/');
    const [raw, path, name] =
      slash < 0
        ? [e.path, entryFile, e.path.replace(/\.[^.]+$/, '') || e.path]
        : [e.path.slice(0, slash), e.path.slice(slash + 1), e.path.slice(0, slash)];
    const label = slash < 0 && e.path !== entryFile ? { label: `"${e.path}" (graded as ${entryFile})` } : {};
    const key = `${name}\0${raw}`;
    const list = groups.get(key) ?? groups.set(key, []).get(key)!;
    list.push({ path, kind: e.kind, ...(e.kind === 'file' && { data: e.data }), ...label });
  }
  const keys = [...groups.keys()].sort();
  const named = nameSubmissions(
    keys.map((k) => ({ name: k.split('\0')[0] as string, raw: k.split('\0')[1] as string })),
  );
  return keys.map((k, i) => {
    const { id, name, problem } = named[i] as (typeof named)[number];
    const shown = name !== id ? { name } : {};
    if (problem)
      return {
        id,
        ...shown,
        files: {},
        error: { code: 'INTAKE_PATH_INVALID', message: `submission "${id}": ${problem}` },
      };
    try {
      const sub = intake(id, groups.get(k) as IntakeEntry[], intakeRules(rubric), name);
      return { id, ...shown, files: fileMapOf(sub), ignored: sub.ignored, error: null };
    } catch (e) {
      const err = asEvigradeError(e);
      return { id, ...shown, files: {}, error: { code: err.code, message: err.message } };
    }
  });
}

/**
 * Reads a tar, gzipped tar or zip of submissions under the intake rules:
 * links, devices, FIFOs and a missing entry file reject their submission; paths escaping the
 * archive, too many entries or too many bytes (archive bombs) reject the upload.
 * With `from`, the archive is that LMS's download (see `grade --from`).
 */
export async function submissionsFromArchive(
  body: Buffer,
  rubric: Rubric,
  from: LmsSystem | 'auto' | null = null,
): Promise<StoredSubmission[]> {
  const entries = await archiveEntries(body);
  if (!from) return byFolder(entries, rubric);
  const { format, entries: root } = resolveFormat(entries, from, 'archive');
  const entryFile = entryFileName(rubric.spec.entry, rubric.spec.language);
  const parsed = format.parse(root, { entryFile });
  return lmsSubmissions(parsed.attempts, 'latest', entryFile).map((s) => ({
    id: s.id,
    files: s.files,
    ignored: s.ignored,
    error: s.error,
    lms: s.lms,
  }));
}
