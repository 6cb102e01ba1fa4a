import type { RawEntry } from '../../domain/lms.js';
import type { LmsIdentity, LmsSystem } from '../../domain/lms.js';

/** One student's attempt as the download holds it, its files renamed back to what the student uploaded. */
export interface LmsAttempt {
  readonly identity: LmsIdentity;
  readonly files: readonly { readonly path: string; readonly entry: RawEntry; readonly label?: string }[];
  /** Download entries that belong to the attempt but are not code (Moodle online text, Blackboard receipts). */
  readonly ignored: readonly string[];
}

export interface LmsParse {
  readonly attempts: readonly LmsAttempt[];
  /** Entries the format's naming does not explain: listed to the user, never guessed at. */
  readonly unmatched: readonly string[];
}

export interface ParseHints {
  /** The file the hidden tests import (`leap.js`): the one name whose LMS copy suffix (`leap-1.js`) is undone. */
  readonly entryFile: string;
}

/** One LMS download format: a pure reading of entry names (and the format's own metadata files). */
export interface LmsFormat {
  readonly id: LmsSystem;
  /** True when these entries (relative to the download's root) look like this system's download. */
  detect(entries: readonly RawEntry[]): boolean;
  parse(entries: readonly RawEntry[], hints: ParseHints): LmsParse;
}

export const topName = (path: string): string => path.split('/')[0] as string;
export const isTop = (e: RawEntry): boolean => !e.path.includes('/');
export const text = (e: RawEntry): string => e.data.toString('utf8');

/** The top-level entries whose name matches a format's pattern, with its named groups; every other path is unmatched. */
export function matchTop(
  entries: readonly RawEntry[],
  pattern: RegExp,
): { matched: { entry: RawEntry; groups: Record<string, string | undefined> }[]; unmatched: string[] } {
  const matched: { entry: RawEntry; groups: Record<string, string | undefined> }[] = [];
  const unmatched: string[] = [];
  for (const entry of entries) {
    const groups = isTop(entry) ? pattern.exec(entry.path)?.groups : undefined;
    if (groups) matched.push({ entry, groups });
    else unmatched.push(entry.path);
  }
  return { matched, unmatched };
}

/** Canvas and Blackboard number re-uploads of one name `leap-1.js`; only the entry file is renamed back (`part-2.js` may be real). */
export function undoCopySuffix(name: string, entryFile: string): string {
  const m = /^(.*)-\d+(\.[^./]+)?$/.exec(name);
  return m && `${m[1]}${m[2] ?? ''}` === entryFile ? entryFile : name;
}
