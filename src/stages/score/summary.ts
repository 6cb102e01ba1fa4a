import type { Report, Summary } from '../../domain/report.js';
import { round2 } from '../../util/round.js';

/** The sandbox(es) the reports ran in (workers of one queue may differ), else the queue's own label. */
function sandboxesOf(reports: readonly Report[], fallback: string): string {
  const ran = [...new Set(reports.filter((r) => r.status === 'graded').map((r) => r.sandbox.backend))].sort();
  return ran.length ? ran.join('+') : fallback;
}

/** Who a report is about, as people read it: the submission's own name, the LMS's, else the id. */
export const displayName = (r: Report): string => r.submission.name ?? r.submission.lms?.name ?? r.submission.id;

/** "criterion: reason" per criterion without a measured score (none for reports older than the field). */
export const unmeasuredText = (r: Report): string[] =>
  (r.scores.unmeasured ?? []).map((u) => `${u.criterion}: ${u.reason}`);

export function summarise(
  reports: readonly Report[],
  rubric: { id: string; sha256: string },
  fallbackSandbox: string,
  now: Date,
): Summary {
  const sandbox = sandboxesOf(reports, fallbackSandbox);
  const sorted = [...reports].sort((a, b) => (a.submission.id < b.submission.id ? -1 : 1));
  const graded = sorted.filter((r) => r.status === 'graded');
  return {
    schemaVersion: 1,
    rubric,
    count: sorted.length,
    graded: graded.length,
    rejected: sorted.filter((r) => r.status === 'rejected').length,
    errored: sorted.filter((r) => r.status === 'error').length,
    meanFinal: graded.length ? round2(graded.reduce((s, r) => s + r.scores.final, 0) / graded.length) : 0,
    flagged: sorted.filter((r) => r.flags.some((f) => f.severity !== 'info')).map((r) => r.submission.id),
    submissions: sorted.map((r) => ({
      id: r.submission.id,
      ...(r.submission.name !== undefined && { name: r.submission.name }),
      status: r.status,
      final: r.scores.final,
      total: r.scores.deterministic.total,
      flags: r.flags.map((f) => f.code),
      passed: r.tests.filter((t) => t.status === 'passed').length,
      tests: r.tests.length,
      unmeasured: unmeasuredText(r),
    })),
    sandbox,
    judge: judgeTotals(sorted),
    generatedAt: now.toISOString(),
  };
}

function judgeTotals(reports: readonly Report[]): Summary['judge'] {
  const count = (st: string): number => reports.filter((r) => r.judge.status === st).length;
  const attempts = reports.flatMap((r) => r.judge.attempts);
  return {
    answered: count('answered'),
    cached: reports.filter((r) => r.judge.cached).length,
    failed: count('failed'),
    skipped: count('skipped'),
    blended: reports.filter((r) => r.scores.blend.applied).length,
    calls: attempts.filter((a) => a.outcome !== 'cached').length,
    promptTokens: attempts.reduce((s, a) => s + a.promptTokens, 0),
    completionTokens: attempts.reduce((s, a) => s + a.completionTokens, 0),
    costUsd: Math.round(reports.reduce((s, r) => s + r.judge.costUsd, 0) * 1e6) / 1e6,
  };
}

/** Quote every cell; neutralise spreadsheet formulas (a cell starting with = + - @). */
export function cell(v: string | number | null): string {
  let s = v === null ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

export function gradesCsv(reports: readonly Report[]): string {
  // `name` last: scripts reading the columns by position keep working.
  const header = [
    'submission',
    'status',
    'correctness',
    'edge_cases',
    'style',
    'complexity',
    'total',
    'final',
    'passed',
    'tests',
    'flags',
    'unmeasured',
    'name',
  ];
  const rows = [...reports]
    .sort((a, b) => (a.submission.id < b.submission.id ? -1 : 1))
    .map((r) => {
      const d = r.scores.deterministic;
      return [
        r.submission.id,
        r.status,
        d.correctness,
        d.edge_cases,
        d.style,
        d.complexity,
        d.total,
        r.scores.final,
        r.tests.filter((t) => t.status === 'passed').length,
        r.tests.length,
        r.flags.map((f) => f.code).join(' '),
        unmeasuredText(r).join('; '),
        displayName(r),
      ]
        .map(cell)
        .join(',');
    });
  return `${[header.map(cell).join(','), ...rows].join('\n')}\n`;
}
