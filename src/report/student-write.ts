import { join } from 'node:path';
import { makeOutputDir, writeFileAtomic } from '../adapters/fs/atomic.js';
import type { Report } from '../domain/report.js';
import type { StudentReport } from '../domain/student.js';
import { isReleased, studentView, type StudentViewOptions } from '../stages/student/student-view.js';
import { renderStudentHtml } from './student-html.js';

/** The projection a student artifact is made with (the leak check hands in a deliberately leaky one). */
export type Projection = (r: Report, opts: StudentViewOptions) => StudentReport;

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
