import { crc32, inflateRawSync } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { archiveInvalid, budget, checkEntryPath, type ArchiveLimits, type RawEntry } from './entries.js';
import { entryName } from './zip-names.js';

const S_IFMT = 0o170000;
const KIND_BY_MODE: Partial<Record<number, RawEntry['kind']>> = {
  0o120000: 'symlink',
  0o020000: 'special',
  0o060000: 'special',
  0o010000: 'special',
  0o140000: 'special',
};

/** Zip files start with a local header (or, when empty, the end-of-central-directory record). */
export const isZip = (buf: Buffer): boolean =>
  buf.length >= 4 && buf[0] === 0x50 && buf[1] === 0x4b && (buf[2] === 3 || buf[2] === 5);

function kindOf(e: Entry): RawEntry['kind'] {
  // Unix modes live in the high 16 bits when the entry was made on a Unix host (version made by 3).
  const madeOnUnix = e.versionMadeBy >> 8 === 3;
  return madeOnUnix ? (KIND_BY_MODE[(e.externalFileAttributes >>> 16) & S_IFMT] ?? 'file') : 'file';
}

function open(buf: Buffer, where: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    // yauzl refuses absolute paths, ".." segments and "\" in names, and entries whose size differs from their header.
    yauzl.fromBuffer(
      buf,
      { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: true },
      (err, zip) => {
        if (err || !zip) reject(archiveInvalid(where, `not a readable zip (${err?.message ?? 'no archive'})`));
        else resolve(zip);
      },
    );
  });
}

/**
 * An entry's stored (compressed) bytes, sliced from the buffer after its local header: the zip is
 * already in memory, and a stream per entry costs more than the inflate itself.
 */
function rawData(buf: Buffer, e: Entry, where: string): Buffer {
  const at = e.relativeOffsetOfLocalHeader;
  const name = JSON.stringify(e.fileName);
  if (e.generalPurposeBitFlag & 1) throw archiveInvalid(where, `entry ${name} is encrypted`);
  if (at + 30 > buf.length || buf.readUInt32LE(at) !== 0x04034b50)
    throw archiveInvalid(where, `entry ${name}: no local header at offset ${at}`);
  const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
  if (start + e.compressedSize > buf.length)
    throw archiveInvalid(where, `entry ${name} runs past the end of the archive`);
  return buf.subarray(start, start + e.compressedSize);
}

/** Inflates at most what the archive's budget has left (a bomb stops there, whatever its header says), then checks size and CRC. */
function inflate(raw: Buffer, e: Entry, where: string, room: number): Buffer {
  const name = JSON.stringify(e.fileName);
  let data: Buffer;
  if (e.compressionMethod === 0) data = raw;
  else if (e.compressionMethod === 8) {
    try {
      data = inflateRawSync(raw, { maxOutputLength: Math.max(1, room + 1) });
    } catch (x) {
      const tooBig = (x as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
      throw archiveInvalid(
        where,
        tooBig ? `entry ${name} inflates past the archive's byte limit` : `entry ${name}: ${(x as Error).message}`,
      );
    }
  } else
    throw archiveInvalid(
      where,
      `entry ${name} uses compression method ${e.compressionMethod} (only stored and deflate are read)`,
    );
  if (data.length !== e.uncompressedSize || crc32(data) !== e.crc32)
    throw archiveInvalid(where, `entry ${name} does not match its header (size or CRC)`);
  return data;
}

/**
 * Every entry of a zip under the archive rules: names must stay inside it,
 * entries and unpacked bytes are counted against the limits, inflating never
 * past what is left (a bomb stops at the limit, whatever its headers claim), links and
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
          e.fileName = entryName(e); // every message below names it as the archiver meant
          const path = checkEntryPath(where, e.fileName);
          if (!e.fileName.endsWith('/') && path !== '') {
            const kind = kindOf(e);
            if (kind !== 'file') out.push({ path, kind, data: Buffer.alloc(0) });
            else {
              if (e.uncompressedSize > limits.maxBytes)
                throw archiveInvalid(
                  where,
                  `entry ${JSON.stringify(e.fileName)} claims ${e.uncompressedSize} bytes (limit ${limits.maxBytes})`,
                );
              const data = inflate(rawData(buf, e, where), e, where, b.remaining());
              b.bytes(data.length);
              out.push({ path, kind, data });
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
