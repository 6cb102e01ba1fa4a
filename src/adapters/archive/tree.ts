import { constants } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_DEPTH } from '../../stages/intake/intake.js';
import { archiveInvalid, budget, type ArchiveLimits, type RawEntry } from './entries.js';

/**
 * An unpacked LMS download (a folder) as the same entries a zip gives: links,
 * devices and FIFOs are reported, never followed or opened; a file with more
 * than one hard link is reported too (it may point anywhere on the host).
 */
export async function readTree(root: string, limits: ArchiveLimits): Promise<RawEntry[]> {
  const b = budget(root, limits);
  const out: RawEntry[] = [];
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH + 1)
      throw archiveInvalid(root, `folders nested deeper than ${MAX_DEPTH + 1} levels at "${rel}"`);
    for (const name of (await readdir(dir)).sort()) {
      b.entry();
      const abs = join(dir, name);
      const path = rel ? `${rel}/${name}` : name;
      const st = await lstat(abs);
      if (st.isDirectory()) await walk(abs, path, depth + 1);
      else if (st.isSymbolicLink()) out.push({ path, kind: 'symlink', data: Buffer.alloc(0) });
      else if (!st.isFile()) out.push({ path, kind: 'special', data: Buffer.alloc(0) });
      else if (st.nlink > 1) out.push({ path, kind: 'hardlink', data: Buffer.alloc(0) });
      else {
        b.bytes(st.size);
        // O_NOFOLLOW + O_NONBLOCK: a link or FIFO swapped in after lstat is neither followed nor waited on.
        const fh = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => null);
        if (!fh) {
          out.push({ path, kind: 'special', data: Buffer.alloc(0) });
          continue;
        }
        try {
          const data = await fh.readFile();
          if (data.length !== st.size) b.bytes(Math.max(0, data.length - st.size));
          out.push({ path, kind: 'file', data });
        } finally {
          await fh.close();
        }
      }
    }
  };
  await walk(root, '', 0);
  return out;
}
