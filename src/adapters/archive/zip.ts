import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { archiveInvalid, budget, checkEntryPath, type ArchiveLimits, type RawEntry } from './entries.js';

const S_IFMT = 0o170000;
const KIND_BY_MODE: Partial<Record<number, RawEntry['kind']>> = { 0o120000: 'symlink', 0o020000: 'special', 0o060000: 'special', 0o010000: 'special', 0o140000: 'special' };

/** Zip files start with a local header (or, when empty, the end-of-central-directory record). */
export const isZip = (buf: Buffer): boolean => buf.length >= 4 && buf[0] === 0x50 && buf[1] === 0x4b && (buf[2] === 3 || buf[2] === 5);

function kindOf(e: Entry): RawEntry['kind'] {
  // Unix modes live in the high 16 bits when the entry was made on a Unix host (version made by 3).
  const madeOnUnix = e.versionMadeBy >> 8 === 3;
  return madeOnUnix ? (KIND_BY_MODE[(e.externalFileAttributes >>> 16) & S_IFMT] ?? 'file') : 'file';
}

function open(buf: Buffer, where: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    // yauzl refuses absolute paths, ".." segments and "\" in names, and entries whose size differs from their header.
    yauzl.fromBuffer(buf, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: true }, (err, zip) => {
      if (err || !zip) reject(archiveInvalid(where, `not a readable zip (${err?.message ?? 'no archive'})`));
      else resolve(zip);
    });
  });
}

function readData(zip: ZipFile, e: Entry, where: string, count: (n: number) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(e, (err, stream) => {
      if (err || !stream) return reject(archiveInvalid(where, `entry ${JSON.stringify(e.fileName)}: ${err?.message ?? 'unreadable'}`));
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => {
        try {
          count(c.length);
          chunks.push(c);
        } catch (limit) {
          stream.destroy();
          reject(limit);
        }
      });
      stream.on('error', (e2: Error) => reject(archiveInvalid(where, `entry ${JSON.stringify(e.fileName)}: ${e2.message}`)));
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}

/**
 * Every entry of a zip under the archive rules: names must stay inside it,
 * entries and unpacked bytes are counted against the limits as they are
 * inflated (a bomb stops at the limit, whatever its headers claim), links and
 * devices come back as such, without data, for intake to refuse.
 */
export async function readZip(buf: Buffer, where: string, limits: ArchiveLimits): Promise<RawEntry[]> {
  const zip = await open(buf, where);
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw archiveInvalid(where, `more than ${limits.maxEntries} entries`);
  }
  const b = budget(where, limits);
  const out: RawEntry[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (e: Error) => reject(archiveInvalid(where, e.message)));
      zip.on('end', resolve);
      zip.on('entry', (e: Entry) => {
        void (async () => {
          b.entry();
          const path = checkEntryPath(where, e.fileName);
          if (!e.fileName.endsWith('/') && path !== '') {
            const kind = kindOf(e);
            if (kind !== 'file') out.push({ path, kind, data: Buffer.alloc(0) });
            else {
              if (e.uncompressedSize > limits.maxBytes) throw archiveInvalid(where, `entry ${JSON.stringify(e.fileName)} claims ${e.uncompressedSize} bytes (limit ${limits.maxBytes})`);
              out.push({ path, kind, data: await readData(zip, e, where, b.bytes) });
            }
          }
          zip.readEntry();
        })().catch(reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return out;
}
