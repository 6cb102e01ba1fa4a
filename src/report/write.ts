import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeOutputDir, writeFileAtomic } from '../adapters/fs/atomic.js';
import { EvigradeError } from '../domain/errors.js';
import { ReportSchema, SummarySchema, type Report, type Summary } from '../domain/report.js';
import { gradesCsv } from '../stages/summary.js';
import { gradescopeResults, prairielearnResults } from './exports.js';
import { renderHtml } from './html.js';

/** Every valid report in an output folder (invalid files are listed, not fatal), and its summary if any. */
export async function readOutDir(dir: string): Promise<{ reports: Report[]; summary: Summary | null; skipped: string[] }> {
  const names = await readdir(dir).catch(() => { throw new EvigradeError('USAGE', `report: cannot read ${dir}`); });
  const reports: Report[] = [];
  const skipped: string[] = [];
  let summary: Summary | null = null;
  for (const n of names.filter((x) => x.endsWith('.json')).sort()) {
    const raw = await readFile(join(dir, n), 'utf8').then((t) => JSON.parse(t) as unknown, () => null);
    if (n === 'summary.json') {
      summary = SummarySchema.safeParse(raw).data ?? null;
      continue;
    }
    const p = ReportSchema.safeParse(raw);
    if (p.success) reports.push(p.data);
    else skipped.push(`${n}: not a valid report`);
  }
  return { reports, summary, skipped };
}

/** report.html, grades.csv, and Gradescope and PrairieLearn results.json per submission. */
export async function writeExports(dir: string, reports: readonly Report[], summary: Summary | null, maxPoints: number): Promise<void> {
  await writeFileAtomic(join(dir, 'report.html'), renderHtml([...reports], summary, { title: `Evigrade — ${reports[0]?.rubric.title ?? 'report'}`, generatedAt: new Date().toISOString() }));
  await writeFileAtomic(join(dir, 'grades.csv'), gradesCsv(reports));
  for (const r of reports) {
    for (const [kind, data] of [['gradescope', gradescopeResults(r, maxPoints)], ['prairielearn', prairielearnResults(r)]] as const) {
      await makeOutputDir(join(dir, kind, r.submission.id));
      await writeFileAtomic(join(dir, kind, r.submission.id, 'results.json'), `${JSON.stringify(data, null, 2)}\n`);
    }
  }
}
