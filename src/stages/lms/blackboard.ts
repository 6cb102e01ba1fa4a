import type { RawEntry } from '../../domain/lms.js';
import type { LmsFormat } from './types.js';
import { isTop, matchTop, text, undoCopySuffix } from './types.js';

// `<Assignment>_<username>_attempt_<yyyy-mm-dd-hh-mm-ss>_<file>`, plus `<same prefix>.txt`, the attempt's
// receipt: "Name: Full Name (username)", "Date Submitted: …", and per file "Original filename: x" then "Filename: stored".
const NAME = /^(?<key>(?<head>.+)_attempt_(?<ts>\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}))(?:_(?<file>.+)|\.txt)$/;

interface Receipt {
  readonly name: string | null;
  readonly user: string | null;
  readonly submitted: string | null;
  readonly originals: ReadonlyMap<string, string>;
}

function receipt(body: string): Receipt {
  const who = /^Name:\s*(.*?)\s*\(([^()\s]+)\)\s*$/m.exec(body);
  const originals = new Map<string, string>();
  for (const m of body.matchAll(/Original filename:\s*(.+?)\s*\r?\n\s*Filename:\s*(.+?)\s*$/gm))
    originals.set(m[2] as string, m[1] as string);
  return {
    name: who?.[1] ?? null,
    user: who?.[2] ?? null,
    submitted: /^Date Submitted:\s*(.+?)\s*$/m.exec(body)?.[1] ?? null,
    originals,
  };
}

export const blackboard: LmsFormat = {
  id: 'blackboard',
  detect: (entries) => entries.length > 0 && entries.every((e) => isTop(e) && NAME.test(e.path)),
  parse(entries, hints) {
    const byKey = new Map<string, { head: string; ts: string; files: RawEntry[]; receipt: RawEntry | null }>();
    const { matched, unmatched } = matchTop(entries, NAME);
    for (const { entry: e, groups: m } of matched) {
      const a =
        byKey.get(m.key!) ?? byKey.set(m.key!, { head: m.head!, ts: m.ts!, files: [], receipt: null }).get(m.key!)!;
      if (m.file === undefined) a.receipt = e;
      else a.files.push(e);
    }
    const attempts = [...byKey.entries()].map(([key, a]) => {
      const r = a.receipt ? receipt(text(a.receipt)) : null;
      // Without a receipt the username is the last "_" field before "_attempt_" (usernames with "_" need the receipt).
      const user = r?.user ?? a.head.slice(a.head.lastIndexOf('_') + 1);
      const files = a.files.map((e) => ({
        path: r?.originals.get(e.path) ?? undoCopySuffix(e.path.slice(key.length + 1), hints.entryFile),
        entry: e,
      }));
      return {
        user,
        ts: a.ts,
        name: r?.name ?? user,
        submitted: r?.submitted ?? a.ts,
        files,
        ignored: a.receipt ? [a.receipt.path] : [],
      };
    });
    // Attempts are numbered per student in submission order; the stamp sorts as text.
    attempts.sort((x, y) => (x.user === y.user ? (x.ts < y.ts ? -1 : 1) : x.user < y.user ? -1 : 1));
    const seen = new Map<string, number>();
    return {
      attempts: attempts.map((a) => {
        const n = (seen.get(a.user) ?? 0) + 1;
        seen.set(a.user, n);
        return {
          identity: {
            system: 'blackboard' as const,
            userId: a.user,
            name: a.name,
            attempt: n,
            late: null,
            submittedAt: a.submitted,
            submissionId: null,
          },
          files: a.files,
          ignored: a.ignored,
        };
      }),
      unmatched,
    };
  },
};
