import { execFile } from 'node:child_process';
import type { Availability } from './types.js';

/** Runs a harmless command and reports whether it worked, with the reason if not. */
export function probe(file: string, args: string[], missing: string): Promise<Availability> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 5000, env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin' } }, (err, _out, stderr) => {
      if (!err) return resolve({ ok: true, reason: 'available' });
      const code = (err as NodeJS.ErrnoException).code;
      resolve({ ok: false, reason: code === 'ENOENT' ? missing : `${file} failed: ${String(stderr || err.message).trim().slice(0, 300)}` });
    });
  });
}
