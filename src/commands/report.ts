// `evigrade report`: report.html and gradebook exports from a folder of reports.
import { join } from 'node:path';
import { parseReportArgs } from '../cli/args.js';
import { EXIT } from '../cli/exit.js';
import { readOutDir, writeExports } from '../report/write.js';

export async function run(argv: string[]): Promise<number> {
  const { outDir, maxPoints } = parseReportArgs(argv);
  const { reports, summary, skipped } = await readOutDir(outDir);
  await writeExports(outDir, reports, summary, maxPoints);
  for (const s of skipped) process.stderr.write(`evigrade: skipped ${s}\n`);
  process.stdout.write(`${join(outDir, 'report.html')}: ${reports.length} submissions; gradebook exports in ${join(outDir, 'gradescope')} and ${join(outDir, 'prairielearn')}\n`);
  return EXIT.ok;
}
