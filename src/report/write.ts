import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeOutputDir, writeBatchFiles, writeFileAtomic } from '../adapters/fs/atomic.js';
import type { StoredBatch } from '../domain/batches.js';
import { EvigradeError } from '../domain/errors.js';
import { ReportSchema, SummarySchema, type Report, type Summary } from '../domain/report.js';
import { gradesCsv, summarise } from '../stages/score/summary.js';
import { gradescopeResults, prairielearnResults } from './exports.js';
import { renderHtml } from './html.js';

/** Every valid report in an output folder (invalid files are listed, not fatal), and its summary if any. */
export async function readOutDir(
  dir: string,
): Promise<{ reports: Report[]; summary: Summary | null; skipped: string[] }> {
  const names = await readdir(dir).catch(() => {
    throw new EvigradeError('USAGE', `report: cannot read ${dir}`);
  });
  const reports: Report[] = [];
  const skipped: string[] = [];
  let summary: Summary | null = null;
  for (const n of names.filter((x) => x.endsWith('.json')).sort()) {
    const raw = await readFile(join(dir, n), 'utf8').then(
      (t) => JSON.parse(t) as unknown,
      () => null,
    );
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
export async function writeExports(
  dir: string,
  reports: readonly Report[],
  summary: Summary | null,
  maxPoints: number,
): Promise<void> {
  await writeFileAtomic(
    join(dir, 'report.html'),
    renderHtml([...reports], summary, {
      title: `Evigrade — ${reports[0]?.rubric.title ?? 'report'}`,
      generatedAt: new Date().toISOString(),
    }),
  );
  await writeFileAtomic(join(dir, 'grades.csv'), gradesCsv(reports));
  for (const r of reports) {
    for (const [kind, data] of [
      ['gradescope', gradescopeResults(r, maxPoints)],
      ['prairielearn', prairielearnResults(r)],
    ] as const) {
      await makeOutputDir(join(dir, kind, r.submission.id));
      await writeFileAtomic(join(dir, kind, r.submission.id, 'results.json'), `${JSON.stringify(data, null, 2)}\n`);
    }
  }
}

/**
 * A stored batch back as the CLI's files: each report exactly as it was kept, and summary.json and grades.csv
 * computed again from them with the batch's own summary time (so they match the CLI's byte for byte).
 */
export async function exportBatch(dir: string, batch: StoredBatch, texts: readonly string[]): Promise<Report[]> {
  if (texts.length < batch.total || batch.summarisedAt === null)
    throw new EvigradeError(
      'NOT_FOUND',
      `batch ${batch.id} is not finished (${texts.length} of ${batch.total} results)`,
    );
  await makeOutputDir(dir);
  const reports = texts.map((t) => ReportSchema.parse(JSON.parse(t)));
  for (const [i, r] of reports.entries())
    await writeFileAtomic(join(dir, `${r.submission.id}.json`), texts[i] as string);
  await writeBatchFiles(
    dir,
    summarise(reports, { id: batch.rubricId, sha256: batch.rubricSha }, batch.label, new Date(batch.summarisedAt)),
    reports,
  );
  return reports;
}
