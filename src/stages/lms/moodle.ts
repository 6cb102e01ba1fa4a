import type { RawEntry } from '../../domain/lms.js';
import type { LmsFormat } from './types.js';
import { topName } from './types.js';

// "Download submissions in folders": `Full Name_<participant id>_assignsubmission_<plugin>_/<uploaded path>`;
// without folders the same prefix is glued to each file name. Only the `file` plugin holds code.
const FOLDER = /^(?<name>.+)_(?<uid>\d+)_assign(?:submission|feedback)_(?<plugin>[a-z]+)_$/;
const FLAT = /^(?<name>.+)_(?<uid>\d+)_assign(?:submission|feedback)_(?<plugin>[a-z]+)_(?<file>[^/]+)$/;

function split(e: RawEntry): { name: string; uid: string; plugin: string; file: string } | null {
  const top = topName(e.path);
  const folder = FOLDER.exec(top)?.groups;
  if (folder && e.path.length > top.length)
    return { name: folder.name!, uid: folder.uid!, plugin: folder.plugin!, file: e.path.slice(top.length + 1) };
  const flat = e.path === top ? FLAT.exec(top)?.groups : undefined;
  return flat ? { name: flat.name!, uid: flat.uid!, plugin: flat.plugin!, file: flat.file! } : null;
}

export const moodle: LmsFormat = {
  id: 'moodle',
  detect: (entries) => entries.length > 0 && entries.every((e) => split(e) !== null),
  parse(entries) {
    const byUser = new Map<string, { name: string; files: { path: string; entry: RawEntry }[]; ignored: string[] }>();
    const unmatched: string[] = [];
    for (const e of entries) {
      const s = split(e);
      if (!s) {
        unmatched.push(e.path);
        continue;
      }
      const a = byUser.get(s.uid) ?? byUser.set(s.uid, { name: s.name, files: [], ignored: [] }).get(s.uid)!;
      // Online text (onlinetext.html) and feedback files are not the student's code: listed, not graded.
      if (s.plugin === 'file' && !e.path.includes('_assignfeedback_')) a.files.push({ path: s.file, entry: e });
      else a.ignored.push(e.path);
    }
    const attempts = [...byUser.entries()].map(([uid, a]) => ({
      identity: {
        system: 'moodle' as const,
        userId: uid,
        name: a.name,
        attempt: null,
        late: null,
        submittedAt: null,
        submissionId: null,
      },
      files: a.files,
      ignored: a.ignored,
    }));
    return { attempts, unmatched };
  },
};
