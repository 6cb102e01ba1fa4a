// `evigrade report`: report.html and gradebook exports from a folder of reports.
import { join } from 'node:path';
import { parseReportArgs } from '../cli/args.js';
import { EXIT } from '../cli/exit.js';
import { writeLmsImport } from '../report/lms-export.js';
import { readOutDir, writeExports } from '../report/write.js';

export async function run(argv: string[]): Promise<number> {
  const { outDir, maxPoints, to, roster } = parseReportArgs(argv);
  const { reports, summary, skipped } = await readOutDir(outDir);
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
