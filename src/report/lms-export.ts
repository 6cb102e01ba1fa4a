import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeOutputDir, writeFileAtomic } from '../adapters/fs/atomic.js';
import { EvigradeError } from '../domain/errors.js';
import type { LmsTarget } from '../domain/lms.js';
import type { Report } from '../domain/report.js';
import { SAFE_SEGMENT } from '../domain/submission.js';
import { GRADEBOOK_WRITERS, gradebookRows, type GradeRow } from '../stages/lms/gradebook.js';
import { parseCsv, parseRoster } from '../stages/lms/roster.js';

export interface LmsImportResult {
  readonly file: string;
  readonly rows: number;
  readonly missing: number;
  readonly feedbackDir: string | null;
}

/** Moodle's "upload multiple feedback files in a zip" matches folders on `_<participant id>_`; the name part is for people. */
function moodleFeedbackFolder(r: GradeRow): string {
  const name =
    [...r.name]
      .map((c) => (SAFE_SEGMENT.test(c) ? c : '_'))
      .join('')
      .slice(0, 80) || 'student';
  return `${name}_${r.userId}_assignsubmission_file_`;
}

/** Writes the import file for `--to` (and Moodle's feedback folders) beside the reports. */
export async function writeLmsImport(
  dir: string,
  reports: readonly Report[],
  opts: { to: LmsTarget; maxPoints: number; roster: string | null },
): Promise<LmsImportResult> {
  const rosterText =
    opts.roster === null
      ? null
      : await readFile(opts.roster, 'utf8').catch(() => {
          throw new EvigradeError('USAGE', `report: cannot read roster "${opts.roster}"`);
        });
  const roster = rosterText === null || opts.roster === null ? null : parseRoster(rosterText, opts.roster);
  const rosterHeader = rosterText === null ? [] : (parseCsv(rosterText)[0] ?? []).map((h) => h.trim());
  const rows = gradebookRows(reports, roster, opts.maxPoints);
  const writer = GRADEBOOK_WRITERS[opts.to];
  const file = join(dir, writer.file);
  await writeFileAtomic(
    file,
    writer.write({ title: reports[0]?.rubric.title ?? 'Evigrade', maxPoints: opts.maxPoints, rows, rosterHeader }),
  );
  let feedbackDir: string | null = null;
  if (opts.to === 'moodle') {
    feedbackDir = join(dir, 'moodle-feedback');
    for (const r of rows.filter((x) => /^\d+$/.test(x.userId))) {
      await makeOutputDir(join(feedbackDir, moodleFeedbackFolder(r)));
      await writeFileAtomic(join(feedbackDir, moodleFeedbackFolder(r), 'feedback.txt'), `${r.feedback}\n`);
    }
  }
  return { file, rows: rows.length, missing: rows.filter((r) => r.status === 'missing').length, feedbackDir };
}
