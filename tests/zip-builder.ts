// Builds zip files in memory for tests, as an LMS would (yazl, the writing twin of the yauzl we read with).
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
