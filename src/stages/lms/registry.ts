import type { RawEntry } from '../../domain/lms.js';
import { EvigradeError } from '../../domain/errors.js';
import { LMS_SYSTEMS, type LmsSystem } from '../../domain/lms.js';
import { blackboard } from './blackboard.js';
import { canvas } from './canvas.js';
import { gradescope } from './gradescope.js';
import { moodle } from './moodle.js';
import type { LmsFormat } from './types.js';

/** Every download format `--from` takes; a new system is one file and one line. */
export const LMS_FORMATS = { canvas, moodle, blackboard, gradescope } as const satisfies Record<LmsSystem, LmsFormat>;

// Operating-system litter at any level, never part of a download's naming scheme.
const LITTER = /(^|\/)(__MACOSX|\.DS_Store|Thumbs\.db|desktop\.ini)(\/|$)/;

/** The entries under the download's root: a download re-zipped inside one folder is read from inside it. */
function roots(entries: readonly RawEntry[]): RawEntry[][] {
  const clean = entries.filter((e) => !LITTER.test(e.path));
  const tops = new Set(clean.map((e) => e.path.split('/')[0]));
  const [only] = tops;
  if (tops.size !== 1 || clean.every((e) => !e.path.includes('/'))) return [clean];
  const inner = clean.map((e) => ({ ...e, path: e.path.slice((only as string).length + 1) }));
  return [clean, inner];
}

/** The format and the entries relative to its root: as named by --from, or the one format that recognises them. */
export function resolveFormat(
  entries: readonly RawEntry[],
  from: LmsSystem | 'auto',
  where: string,
): { format: LmsFormat; entries: RawEntry[] } {
  const candidates = from === 'auto' ? LMS_SYSTEMS.map((s) => LMS_FORMATS[s]) : [LMS_FORMATS[from]];
  for (const root of roots(entries)) {
    // auto: the format whose naming every entry follows; named: it may leave some entries unexplained (listed as unmatched).
    const found = candidates.filter(
      (f) => f.detect(root) || (from !== 'auto' && f.parse(root, { entryFile: '' }).attempts.length > 0),
    );
    if (found.length >= 1) return { format: found[0] as LmsFormat, entries: root };
  }
  const named = from === 'auto' ? `any of ${LMS_SYSTEMS.join(', ')}` : from;
  const sample = entries
    .slice(0, 3)
    .map((e) => JSON.stringify(e.path))
    .join(', ');
  throw new EvigradeError(
    'ARCHIVE_INVALID',
    `${where}: not a ${named} download (${entries.length} entries${sample ? `, e.g. ${sample}` : ''}); see README "From your LMS and back" for the names each system uses`,
  );
}
