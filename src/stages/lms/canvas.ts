import type { LmsAttempt, LmsFormat } from './types.js';
import { isTop, matchTop, undoCopySuffix } from './types.js';

// `lastnamefirstname_[LATE_]userid_submissionid_filename`: Canvas lower-cases the name and drops its spaces
// and punctuation, so the name holds no "_"; the user and submission ids are digits.
const NAME = /^(?<name>[^_/]+)_(?:(?<late>LATE)_)?(?<uid>\d+)_(?<sid>\d+)_(?<file>[^/]+)$/;

export const canvas: LmsFormat = {
  id: 'canvas',
  detect: (entries) => entries.length > 0 && entries.every((e) => isTop(e) && NAME.test(e.path)),
  parse(entries, hints) {
    const byUser = new Map<
      string,
      { identity: LmsAttempt['identity']; files: { path: string; entry: (typeof entries)[number] }[] }
    >();
    const { matched, unmatched } = matchTop(entries, NAME);
    for (const { entry: e, groups: m } of matched) {
      const uid = m.uid as string;
      const a =
        byUser.get(uid) ??
        byUser
          .set(uid, {
            identity: {
              system: 'canvas',
              userId: uid,
              name: m.name as string,
              attempt: null,
              late: m.late !== undefined,
              submittedAt: null,
              submissionId: m.sid as string,
            },
            files: [],
          })
          .get(uid)!;
      a.files.push({ path: undoCopySuffix(m.file as string, hints.entryFile), entry: e });
    }
    return { attempts: [...byUser.values()].map((a) => ({ ...a, ignored: [] })), unmatched };
  },
};
