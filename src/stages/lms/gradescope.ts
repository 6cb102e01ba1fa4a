import { parse as parseYaml } from 'yaml';
import type { RawEntry } from '../../domain/lms.js';
import { EvigradeError } from '../../domain/errors.js';
import type { LmsFormat } from './types.js';
import { text, topName } from './types.js';

// "Export Submissions": `submission_<id>/<uploaded path>` folders and `submission_metadata.yml`, keyed by
// folder name, whose values carry Ruby-symbol keys: `:submitters: [{:name:, :sid:, :email:}]`, `:created_at:`.
const META = 'submission_metadata.yml';
const FOLDER = /^submission_(\d+)$/;

type Submitter = { name?: unknown; sid?: unknown; email?: unknown };

/** `:submitters:` → `submitters`, recursively: the export writes Ruby symbols as keys. */
function unsymbol(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(unsymbol);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/^:/, ''), unsymbol(x)]));
  return v;
}

function metadata(
  entries: readonly RawEntry[],
): Record<string, { submitters?: Submitter[]; created_at?: unknown; late?: unknown }> {
  const meta = entries.find((e) => e.path === META);
  if (!meta) return {};
  try {
    return (unsymbol(parseYaml(text(meta), { maxAliasCount: 100 })) ?? {}) as ReturnType<typeof metadata>;
  } catch (e) {
    throw new EvigradeError('ARCHIVE_INVALID', `${META}: not readable YAML (${(e as Error).message})`);
  }
}

const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;

export const gradescope: LmsFormat = {
  id: 'gradescope',
  detect: (entries) => entries.some((e) => e.path === META),
  parse(entries) {
    const meta = metadata(entries);
    const byFolder = new Map<string, RawEntry[]>();
    const unmatched: string[] = [];
    for (const e of entries) {
      if (e.path === META) continue;
      const top = topName(e.path);
      if (FOLDER.test(top) && e.path !== top) (byFolder.get(top) ?? byFolder.set(top, []).get(top)!).push(e);
      else unmatched.push(e.path);
    }
    const attempts = [...byFolder.entries()].map(([folder, files]) => {
      // The metadata is the download's text too: any shape that is not the documented one reads as absent.
      const raw = meta && typeof meta === 'object' ? meta[folder] : undefined;
      const m = raw && typeof raw === 'object' ? raw : {};
      const submitters = (Array.isArray(m.submitters) ? m.submitters : []).filter(
        (s): s is Submitter => !!s && typeof s === 'object',
      );
      const who = submitters[0] ?? {};
      const names = submitters.map((s) => str(s.name)).filter((n): n is string => n !== null);
      const sid = (FOLDER.exec(folder) as RegExpExecArray)[1] as string;
      return {
        identity: {
          system: 'gradescope' as const,
          userId: str(who.sid) ?? str(who.email) ?? folder,
          name: names.join(', '),
          attempt: null,
          late: typeof m.late === 'boolean' ? m.late : null,
          submittedAt: str(m.created_at),
          submissionId: sid,
        },
        files: files.map((e) => ({ path: e.path.slice(folder.length + 1), entry: e })),
        ignored: [],
      };
    });
    return { attempts, unmatched };
  },
};
