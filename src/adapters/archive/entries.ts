import { EvigradeError } from '../../domain/errors.js';

export type { RawEntry } from '../../domain/lms.js';

/** What one upload or download may unpack to: past either, it is refused as an archive bomb. */
export const ARCHIVE_LIMITS = { maxBytes: 64 * 1024 * 1024, maxEntries: 50_000 } as const;

export interface ArchiveLimits {
  readonly maxBytes: number;
  readonly maxEntries: number;
}

export const archiveInvalid = (where: string, message: string): EvigradeError =>
  new EvigradeError('ARCHIVE_INVALID', `${where}: ${message}`);

/** The path rule every archive shares: relative, `/`-separated, nothing that climbs out. */
export function checkEntryPath(where: string, name: string): string {
  const clean = name.replace(/^(\.\/)+/, '');
  if (clean.startsWith('/') || /^[A-Za-z]:/.test(clean) || clean.includes('\\') || clean.includes('\0'))
    throw archiveInvalid(where, `entry ${JSON.stringify(name)} is absolute or uses "\\" separators`);
  if (clean.split('/').some((s) => s === '..'))
    throw archiveInvalid(where, `entry ${JSON.stringify(name)} escapes the archive`);
  return clean
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
}

/** Counts entries and bytes as they are read: the bomb limit holds whatever the headers claim. */
export function budget(
  where: string,
  limits: ArchiveLimits,
): { entry(): void; bytes(n: number): void; remaining(): number } {
  let entries = 0;
  let bytes = 0;
  return {
    entry() {
      if (++entries > limits.maxEntries) throw archiveInvalid(where, `more than ${limits.maxEntries} entries`);
    },
    bytes(n) {
      bytes += n;
      if (bytes > limits.maxBytes)
        throw archiveInvalid(where, `more than ${limits.maxBytes} bytes once unpacked (limit for an archive)`);
    },
    remaining: () => limits.maxBytes - bytes,
  };
}
