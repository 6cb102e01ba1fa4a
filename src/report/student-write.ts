import { join } from 'node:path';
import { makeOutputDir, writeFileAtomic } from '../adapters/fs/atomic.js';
import type { Report } from '../domain/report.js';
import type { StudentReport } from '../domain/student.js';
import { studentView, type StudentViewOptions } from '../stages/student/student-view.js';
import { renderStudentHtml } from './student-html.js';

/** The projection a student artifact is made with (the leak check hands in a deliberately leaky one). */
export type Projection = (r: Report, opts: StudentViewOptions) => StudentReport;

/**
 * Whether a report's `after_due` tests are released: the instructor said so (`--release`), or the rubric's
 * `student.release_at` has passed at `now` (the clock is the caller's).
 */
export function isReleased(r: Report, release: boolean, now: Date): boolean {
  const at = r.rubric.student?.release_at;
  return release || (at !== undefined && Date.parse(at) <= now.getTime());
}

/** `<out>/<id>.html` and `<out>/<id>.json` per report: the student's page and the view it was rendered from. */
export async function writeStudentViews(
  outDir: string,
  reports: readonly Report[],
  opts: { release: boolean; now: Date },
  project: Projection = studentView,
): Promise<string[]> {
  await makeOutputDir(outDir);
  const written: string[] = [];
  for (const r of reports) {
    const view = project(r, { released: isReleased(r, opts.release, opts.now) });
    await writeFileAtomic(join(outDir, `${r.submission.id}.json`), `${JSON.stringify(view, null, 2)}\n`);
    await writeFileAtomic(join(outDir, `${r.submission.id}.html`), renderStudentHtml(view));
    written.push(r.submission.id);
  }
  return written;
}
