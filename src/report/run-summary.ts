import { resolve } from 'node:path';
import type { Report, Summary } from '../domain/report.js';
import { HIDDEN_CHARS_SOURCE } from '../domain/text.js';
import { displayName } from '../stages/score/summary.js';

// What a person reads when `evigrade grade` ends, on a terminal or in a CI log: the counts, the mean, who needs a
// look and why (their flags; the grader errors a re-run retries; the rejections), and where the reports are. Only
// ids, names, codes and numbers: no text a submission wrote (a flag's message can quote it) reaches a terminal.

/** Control, bidi and zero-width characters shown as ⟨U+…⟩: a name never moves the cursor or reorders a line. */
const printable = (s: string): string =>
  s.replace(
    // The one list of hidden characters (domain/text.ts), and the line breaks and tab a terminal line cannot hold.
    new RegExp(`${HIDDEN_CHARS_SOURCE}|[\\t\\n\\r]`, 'g'),
    (c) => `⟨U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`,
  );

/** "ana" or "José Núñez (jose-nunez-1a2b3c4d)": the name people know, and the report's file name when it differs. */
function who(r: Report): string {
  const name = displayName(r);
  return printable(name === r.submission.id ? name : `${name} (${r.submission.id})`);
}

const MAX_LISTED = 20;
function listed(title: string, rows: readonly string[]): string[] {
  if (rows.length === 0) return [];
  const shown = rows.slice(0, MAX_LISTED).map((row) => `    ${row}`);
  const more =
    rows.length > MAX_LISTED ? [`    … and ${rows.length - MAX_LISTED} more (summary.json lists every one)`] : [];
  return [`  ${title} (${rows.length}):`, ...shown, ...more];
}

/** What a batch run returns (batch.ts BatchResult): its reports, summary.json, and how many were processed now or kept. */
export interface RunOutcome {
  readonly reports: readonly Report[];
  readonly summary: Summary;
  readonly graded: number;
  readonly reused: number;
  readonly interrupted: boolean;
}

/** The end-of-run summary as lines of plain text. Pure. */
export function runSummaryText(res: RunOutcome, out: string, rubricTitle: string, batch: string | null = null): string {
  const s = res.summary;
  const reports = [...res.reports].sort((a, b) => (a.submission.id < b.submission.id ? -1 : 1));
  const flagged = reports.filter((r) => r.flags.some((f) => f.severity !== 'info'));
  const codes = (r: Report): string =>
    r.flags
      .filter((f) => f.severity !== 'info')
      .map((f) => f.code)
      .join(', ');
  const errorOf = (r: Report): string => r.errors.map((e) => e.code).join(', ') || r.status;
  const head = res.interrupted
    ? `Interrupted: ${s.count} of the submissions have reports (a re-run continues).`
    : `Graded ${s.count} submission${s.count === 1 ? '' : 's'} for "${printable(rubricTitle)}" (${s.rubric.id}).`;
  const at = resolve(out);
  return [
    head,
    `  ${s.graded} graded, ${s.rejected} rejected, ${s.errored} grader error${s.errored === 1 ? '' : 's'}` +
      ` (${res.graded} processed now, ${res.reused} kept from an earlier run)`,
    s.graded > 0
      ? `  mean final score ${s.meanFinal.toFixed(2)} / 10 over the ${s.graded} graded`
      : '  no submission graded',
    ...listed(
      'flagged',
      flagged.map((r) => `${who(r)}: ${codes(r)}`),
    ),
    ...listed(
      'rejected',
      reports.filter((r) => r.status === 'rejected').map((r) => `${who(r)}: ${errorOf(r)}`),
    ),
    ...listed(
      'grader errors, retried by a re-run',
      reports.filter((r) => r.status === 'error').map((r) => `${who(r)}: ${errorOf(r)}`),
    ),
    ...(batch
      ? [`Recorded in the grading history as batch ${batch} (\`history --export ${batch}\` gives these files back)`]
      : []),
    `Reports: ${printable(at)}/ (one <id>.json per student, summary.json, grades.csv); ` +
      `\`evigrade report ${printable(out)}\` writes report.html`,
    '',
  ].join('\n');
}
