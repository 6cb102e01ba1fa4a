// Builds zip files in memory for tests, as an LMS would (yazl, the writing twin of the yauzl we read with).
import { crc32 } from 'node:zlib';
import yazl from 'yazl';

export interface ZipItem {
  readonly name: string;
  readonly content?: string | Buffer;
  /** Unix mode; 0o120777 makes a symbolic link whose content is its target. */
  readonly mode?: number;
}

export async function buildZip(items: readonly ZipItem[]): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const it of items)
    z.addBuffer(
      Buffer.isBuffer(it.content) ? it.content : Buffer.from(it.content ?? '', 'utf8'),
      it.name,
      it.mode ? { mode: it.mode } : {},
    );
  z.end();
  const chunks: Buffer[] = [];
  for await (const c of z.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Rewrites an entry name in both its headers (same length): how a hostile zip names "../x", which yazl refuses to write. */
export function renameEntry(zip: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('same length only');
  return Buffer.from(zip.toString('latin1').split(from).join(to), 'latin1');
}

/** One entry of rawZip: the name's bytes as stored, the host and version that made it, flags and extra fields as given. */
export interface RawZipItem {
  readonly name: Buffer;
  /** "Version made by": host in the high byte (0 DOS, 3 Unix, 11 NTFS), zip spec version in the low byte. */
  readonly madeBy: number;
  readonly flags?: number;
  readonly extra?: Buffer;
  readonly content: string;
}

/** Info-ZIP's Unicode Path extra field (0x7075) for a name stored as `stored`. */
export function unicodePathField(stored: Buffer, utf8Name: string): Buffer {
  const name = Buffer.from(utf8Name, 'utf8');
  const head = Buffer.alloc(9);
  head.writeUInt16LE(0x7075, 0);
  head.writeUInt16LE(5 + name.length, 2);
  head.writeUInt8(1, 4);
  head.writeUInt32LE(crc32(stored), 5);
  return Buffer.concat([head, name]);
}

/**
 * A stored (uncompressed) zip written byte by byte, for what yazl will not write: names without the UTF-8 flag in
 * any encoding, any host in "version made by", Info-ZIP's extra fields (yazl always flags a non-ASCII name).
 */
export function rawZip(items: readonly RawZipItem[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const it of items) {
    const data = Buffer.from(it.content, 'utf8');
    const extra = it.extra ?? Buffer.alloc(0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(it.flags ?? 0, 6);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(it.name.length, 26);
    local.writeUInt16LE(extra.length, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(it.madeBy, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(it.flags ?? 0, 8);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(it.name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(it.madeBy >> 8 === 3 ? 0o100644 * 65536 : 0, 38);
    central.writeUInt32LE(offset, 42);
    const entry = Buffer.concat([local, it.name, extra, data]);
    locals.push(entry);
    centrals.push(Buffer.concat([central, it.name, extra]));
    offset += entry.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(items.length, 8);
  end.writeUInt16LE(items.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}
