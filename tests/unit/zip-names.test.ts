// Zip entry names read as the archiver meant, as Info-ZIP's unzip decides: the UTF-8 flag (bit 11), the Unicode
// Path extra field (0x7075), else CP437 from a DOS/Windows host and the bytes as they are (UTF-8) from a Unix one.
// (Debian's unzip is no oracle here: it prints DOS names converted to ISO-8859-1, whatever the locale.)
import { describe, expect, it } from 'vitest';
import { ARCHIVE_LIMITS } from '../../src/adapters/archive/entries.js';
import { readZip } from '../../src/adapters/archive/zip.js';
import { rawZip, unicodePathField, type RawZipItem } from '../zip-builder.js';

const ZOE = 'Zoë Müller_77_assignsubmission_file_/leap.js';
const utf8 = Buffer.from(ZOE, 'utf8');
/** "Zoë Müller" in the DOS code page (CP437: ë 0x89, ü 0x81). */
const cp437 = Buffer.concat([
  Buffer.from('Zo'),
  Buffer.from([0x89]),
  Buffer.from(' M'),
  Buffer.from([0x81]),
  Buffer.from('ller_77_assignsubmission_file_/leap.js'),
]);
const UNIX = (3 << 8) | 30; // Info-ZIP zip 3.0 on Linux
const DOS = (0 << 8) | 20;

const cases: [string, RawZipItem, string][] = [
  [
    'Info-ZIP on Unix, UTF-8 bytes, no flag (a Moodle download re-zipped)',
    { name: utf8, madeBy: UNIX, content: 'x' },
    ZOE,
  ],
  ['the UTF-8 flag', { name: utf8, madeBy: DOS, flags: 0x800, content: 'x' }, ZOE],
  ['a DOS host, CP437 bytes, no flag', { name: cp437, madeBy: DOS, content: 'x' }, ZOE],
  [
    'CP437 bytes with an Info-ZIP Unicode Path field',
    { name: cp437, madeBy: DOS, extra: unicodePathField(cp437, ZOE), content: 'x' },
    ZOE,
  ],
  [
    'a DOS host, UTF-8 bytes, no flag (CP437 it is, as unzip reads it)',
    { name: utf8, madeBy: DOS, content: 'x' },
    'Zo├½ M├╝ller_77_assignsubmission_file_/leap.js',
  ],
  [
    'a Unix host, bytes that are not UTF-8 (CP437 the only reading left)',
    { name: cp437, madeBy: UNIX, content: 'x' },
    'Zoë Müller_77_assignsubmission_file_/leap.js',
  ],
];

const read = async (item: RawZipItem): Promise<string[]> =>
  (await readZip(rawZip([item]), 'test.zip', ARCHIVE_LIMITS)).map((e) => e.path);

describe('zip entry names, as the archiver meant', () => {
  it.each(cases)('%s', async (_what, item, expected) => {
    expect(await read(item)).toEqual([expected]);
  });
});
