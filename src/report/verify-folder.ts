import { SummarySchema, type Report } from '../domain/report.js';
import { gradesCsv, summarise } from '../stages/score/summary.js';
import { canonicalJson } from '../util/hash.js';
import { checkReport, parseReport, whyNotAReport, type Difference } from './verify.js';

// `evigrade verify <folder>`: every report of a batch folder against its own evidence, then summary.json and
// grades.csv against the reports beside them. Pure: the command reads the files, this says what holds.

export interface FolderFile {
  readonly name: string;
  /** The file's text; null when it could not be read. */
  readonly text: string | null;
}

export interface FolderVerdict {
  /** One line per report (and one for summary.json and grades.csv), each difference indented below its file. */
  readonly lines: string[];
  readonly reports: number;
  readonly failedReports: number;
  /** Files that do not hold: reports, summary.json, grades.csv. */
  readonly failed: string[];
}

const parse = (text: string | null): unknown => {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

const indent = (ds: readonly Difference[]): string[] =>
  ds.map((d) => `    ${d.field}: the file says ${d.report}, recomputed ${d.recomputed}`);

/** summary.json recomputed from the reports it sits beside, with its own rubric, sandbox fallback and time. */
function summaryDifferences(text: string | null, reports: readonly Report[]): Difference[] {
  const p = SummarySchema.safeParse(parse(text));
  if (!p.success)
    return [{ field: '(summary)', report: text === null ? 'missing' : 'invalid', recomputed: 'a summary' }];
  const s = p.data;
  const again = summarise(reports, s.rubric, s.sandbox, new Date(s.generatedAt));
  return (Object.keys(again) as (keyof typeof again)[])
    .filter((k) => canonicalJson(s[k]) !== canonicalJson(again[k]))
    .map((k) => ({ field: k, report: JSON.stringify(s[k]), recomputed: JSON.stringify(again[k]) }));
}

/** grades.csv against the rows the reports give: the first line that differs. */
function csvDifferences(text: string | null, reports: readonly Report[]): Difference[] {
  if (text === null) return [];
  const want = gradesCsv(reports).split('\n');
  const got = text.split('\n');
  const at = want.findIndex((l, i) => got[i] !== l);
  if (at < 0 && got.length === want.length) return [];
  const line = at < 0 ? want.length : at;
  return [{ field: `line ${line + 1}`, report: got[line] ?? '(none)', recomputed: want[line] ?? '(none)' }];
}

/** Verifies a batch folder: its `<id>.json` reports, `summary.json` and `grades.csv`. */
export function verifyFolder(files: readonly FolderFile[]): FolderVerdict {
  const lines: string[] = [];
  const failed: string[] = [];
  const good: Report[] = [];
  const byName = new Map(files.map((f) => [f.name, f.text]));
  const reportFiles = files.filter((f) => f.name.endsWith('.json') && f.name !== 'summary.json');
  for (const f of [...reportFiles].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const raw = parse(f.text);
    const not = whyNotAReport(raw);
    const { report, differences } = not ? { report: null, differences: [] } : parseReport(raw);
    const found = not ? [] : report ? checkReport(report) : differences;
    if (report && found.length === 0) {
      good.push(report);
      lines.push(`${f.name}: verified (${report.evidence.hash})`);
      continue;
    }
    failed.push(f.name);
    lines.push(
      not ? `${f.name}: not an Evigrade report (${not})` : `${f.name}: ${found.length} difference(s)`,
      ...indent(found),
    );
    if (report) good.push(report); // still in the batch: summary.json and grades.csv are checked against what it says
  }
  for (const [name, check] of [
    ['summary.json', summaryDifferences],
    ['grades.csv', csvDifferences],
  ] as const) {
    if (name === 'grades.csv' && !byName.has(name)) continue;
    const ds = check(byName.get(name) ?? null, good);
    if (ds.length) failed.push(name);
    lines.push(
      ds.length ? `${name}: ${ds.length} difference(s) from the reports beside it` : `${name}: verified`,
      ...indent(ds),
    );
  }
  const failedReports = failed.filter((n) => n !== 'summary.json' && n !== 'grades.csv').length;
  return { lines, reports: reportFiles.length, failedReports, failed };
}
