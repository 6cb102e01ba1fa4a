import { crc32 } from 'node:zlib';
import type { Entry } from 'yauzl';

/** Hosts ("version made by", high byte) whose names Info-ZIP's unzip reads as the DOS code page (CP437). */
const FAT = 0;
const HPFS = 6;
const NTFS = 11;
const UNICODE_PATH = 0x7075;
const UTF8_FLAG = 0x800;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Info-ZIP's Unicode Path extra field (version 1, its CRC matching the header's name): yauzl then took the name from it. */
const hasUnicodePath = (e: Pick<Entry, 'extraFields' | 'fileNameRaw'>): boolean =>
  e.extraFields.some(
    (f) =>
      f.id === UNICODE_PATH && f.data.length >= 6 && f.data[0] === 1 && f.data.readUInt32LE(1) === crc32(e.fileNameRaw),
  );

/**
 * An entry's name as Info-ZIP's unzip reads it on Unix. yauzl already follows the UTF-8 flag (general-purpose bit
 * 11) and the Unicode Path extra field (0x7075), and reads every other name as CP437. unzip reads CP437 only from a
 * DOS, OS/2 or Windows NT host (`Ext_ASCII_TO_Native` in unix/unxcfg.h); a name from a Unix or macOS host is its
 * bytes as they are, which is UTF-8 today: a Moodle download zipped by Info-ZIP's `zip` without the flag names
 * `Zoë Müller`, not `Zo├½ M├╝ller`. Bytes that are not UTF-8 stay CP437, the only reading left.
 */
export function entryName(
  e: Pick<Entry, 'fileName' | 'fileNameRaw' | 'generalPurposeBitFlag' | 'extraFields' | 'versionMadeBy'>,
): string {
  if (e.generalPurposeBitFlag & UTF8_FLAG || hasUnicodePath(e)) return e.fileName;
  const host = e.versionMadeBy >> 8;
  const dosCodePage = host === FAT || host === HPFS || (host === NTFS && (e.versionMadeBy & 0xff) === 50);
  if (dosCodePage) return e.fileName;
  try {
    return strictUtf8.decode(e.fileNameRaw);
  } catch {
    return e.fileName;
  }
}
