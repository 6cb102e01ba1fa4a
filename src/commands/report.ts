// `evigrade report`: report.html and gradebook exports from a folder of reports.
import { join } from 'node:path';
import { parseReportArgs } from '../cli/args.js';
import { EXIT } from '../cli/exit.js';
import { writeLmsImport } from '../report/lms-export.js';
import { readOutDir, writeExports } from '../report/write.js';
import { writeStudentViews } from '../report/student-write.js';

export async function run(argv: string[]): Promise<number> {
  const { outDir, maxPoints, to, roster, students } = parseReportArgs(argv);
  const { reports, summary, skipped } = await readOutDir(outDir);
  if (students) {
    for (const s of skipped) process.stderr.write(`evigrade: skipped ${s}\n`);
    const ids = await writeStudentViews(students.out, reports, { release: students.release, now: new Date() });
    process.stdout.write(`${students.out}: a page and a JSON for each of ${ids.length} students\n`);
    return EXIT.ok;
  }
  await writeExports(outDir, reports, summary, maxPoints);
  for (const s of skipped) process.stderr.write(`evigrade: skipped ${s}\n`);
  if (to) {
    const res = await writeLmsImport(outDir, reports, { to, maxPoints, roster });
    process.stdout.write(
      `${res.file}: ${res.rows} students (${res.missing} missing) out of ${maxPoints} points${res.feedbackDir ? `; feedback files in ${res.feedbackDir}` : ''}\n`,
    );
  }
  process.stdout.write(
    `${join(outDir, 'report.html')}: ${reports.length} submissions; gradebook exports in ${join(outDir, 'gradescope')} and ${join(outDir, 'prairielearn')}\n`,
  );
  return EXIT.ok;
}
