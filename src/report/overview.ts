import { CRITERIA, type Criterion } from '../domain/judge.js';
import type { Report } from '../domain/report.js';
import { round2 } from '../util/round.js';

/**
 * Batch statistics for the HTML report, computed here (typed, unit-tested) and
 * embedded as JSON; the page's script only displays them. Every field of a
 * report is read defensively: a report read from disk may be partial.
 */
export interface FlaggedEntry {
  /** Position of the report in the array given to renderHtml (the page's section is `#s<index>`). */
  readonly index: number;
  readonly id: string;
  readonly severity: 'warning' | 'critical';
  readonly codes: string[];
}

export interface Overview {
  readonly count: number;
  readonly graded: number;
  readonly rejected: number;
  readonly errored: number;
  /** Mean final score of the graded reports (null when none is graded). */
  readonly meanFinal: number | null;
  /** Final scores of the graded reports in bins [0,1), [1,2) … [9,10]. */
  readonly histogram: number[];
  /** Mean of each criterion's final (blended) score over the graded reports that have one. */
  readonly criteria: Record<Criterion, { mean: number | null; n: number }>;
  /** Reports with a warning or critical flag: critical first, then by id. */
  readonly flagged: FlaggedEntry[];
  /** Graded reports with a criterion that carries no measured score, and why (report order). */
  readonly unmeasured: { index: number; id: string; items: string[] }[];
  readonly judge: {
    answered: number;
    skipped: number;
    failed: number;
    cached: number;
    blended: number;
    calls: number;
    promptTokens: number;
    completionTokens: number;
    costUsd: number;
  };
}

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
const arr = <T>(x: readonly T[] | null | undefined): readonly T[] => (Array.isArray(x) ? x : []);

export function isFlagged(r: Report): boolean {
  return arr(r?.flags).some((f) => f?.severity === 'warning' || f?.severity === 'critical');
}

/** The per-criterion score that entered the final score: the blend's, else the deterministic one. */
export function criterionScore(r: Report, c: Criterion): number | null {
  const blended = r?.scores?.blend?.perCriterion;
  return num(blended ? blended[c] : r?.scores?.deterministic?.[c]);
}

export function overview(reports: readonly Report[]): Overview {
  const graded = reports.filter((r) => r?.status === 'graded');
  const finals = graded.map((r) => num(r.scores?.final)).filter((n): n is number => n !== null);
  const histogram = new Array<number>(10).fill(0);
  for (const f of finals) {
    const bin = Math.min(9, Math.max(0, Math.floor(f)));
    histogram[bin] = (histogram[bin] ?? 0) + 1;
  }
  const criteria = Object.fromEntries(
    CRITERIA.map((c) => {
      const vals = graded.map((r) => criterionScore(r, c)).filter((n): n is number => n !== null);
      return [c, { mean: vals.length ? round2(vals.reduce((a, b) => a + b, 0) / vals.length) : null, n: vals.length }];
    }),
  ) as Overview['criteria'];
  const flagged: FlaggedEntry[] = [];
  reports.forEach((r, index) => {
    if (!isFlagged(r)) return;
    const flags = arr(r.flags);
    const severity = flags.some((f) => f?.severity === 'critical') ? 'critical' : 'warning';
    flagged.push({
      index,
      id: String(r.submission?.id ?? ''),
      severity,
      codes: flags.map((f) => String(f?.code ?? '')),
    });
  });
  flagged.sort((a, b) =>
    a.severity === b.severity
      ? a.id < b.id
        ? -1
        : a.id > b.id
          ? 1
          : a.index - b.index
      : a.severity === 'critical'
        ? -1
        : 1,
  );
  return {
    count: reports.length,
    graded: graded.length,
    rejected: reports.filter((r) => r?.status === 'rejected').length,
    errored: reports.filter((r) => r?.status === 'error').length,
    meanFinal: finals.length ? round2(finals.reduce((a, b) => a + b, 0) / finals.length) : null,
    histogram,
    criteria,
    flagged,
    unmeasured: unmeasuredOf(reports),
    judge: judgeUsage(reports),
  };
}

function unmeasuredOf(reports: readonly Report[]): Overview['unmeasured'] {
  const out: Overview['unmeasured'] = [];
  reports.forEach((r, index) => {
    const items = arr(r?.scores?.unmeasured).map((u) => `${String(u?.criterion ?? '')}: ${String(u?.reason ?? '')}`);
    if (r?.status === 'graded' && items.length) out.push({ index, id: String(r.submission?.id ?? ''), items });
  });
  return out;
}

function judgeUsage(reports: readonly Report[]): Overview['judge'] {
  const count = (st: string): number => reports.filter((r) => r?.judge?.status === st).length;
  const attempts = reports.flatMap((r) => arr(r?.judge?.attempts));
  const sum = (xs: readonly unknown[]): number => xs.reduce<number>((s, x) => s + (num(x) ?? 0), 0);
  return {
    answered: count('answered'),
    skipped: count('skipped'),
    failed: count('failed'),
    cached: reports.filter((r) => r?.judge?.cached === true).length,
    blended: reports.filter((r) => r?.scores?.blend?.applied === true).length,
    calls: attempts.filter((a) => a?.outcome !== 'cached').length,
    promptTokens: sum(reports.map((r) => r?.judge?.tokens?.prompt)),
    completionTokens: sum(reports.map((r) => r?.judge?.tokens?.completion)),
    costUsd: Math.round(sum(reports.map((r) => r?.judge?.costUsd)) * 1e6) / 1e6,
  };
}

/**
 * The score histogram as inline SVG. Only numbers go into it (bin bounds and
 * counts), so it is written as markup; no report string ever is.
 */
export function histogramSvg(bins: readonly number[]): string {
  const W = 420;
  const H = 180;
  const left = 28;
  const bottom = 22;
  const top = 16;
  const counts = bins.map((b) => (Number.isFinite(b) && b > 0 ? Math.floor(b) : 0));
  const max = Math.max(1, ...counts);
  const bw = (W - left - 4) / Math.max(1, counts.length);
  const y = (c: number): number => Math.round((H - bottom - ((H - bottom - top) * c) / max) * 10) / 10;
  const parts: string[] = [];
  parts.push(`<line class="axis" x1="${left}" y1="${H - bottom}" x2="${W - 2}" y2="${H - bottom}"></line>`);
  parts.push(`<text class="tick" x="${left - 4}" y="${y(max) + 4}" text-anchor="end">${max}</text>`);
  parts.push(`<text class="tick" x="${left - 4}" y="${H - bottom}" text-anchor="end">0</text>`);
  counts.forEach((c, i) => {
    const x = Math.round((left + i * bw + 2) * 10) / 10;
    const w = Math.round((bw - 4) * 10) / 10;
    const label = `${c} submission${c === 1 ? '' : 's'} scoring ${i} to ${i === counts.length - 1 ? `${i + 1} inclusive` : `under ${i + 1}`}`;
    parts.push(
      `<rect class="bar" data-bin="${i}" data-count="${c}" x="${x}" y="${y(c)}" width="${w}" height="${Math.round((H - bottom - y(c)) * 10) / 10}"><title>${label}</title></rect>`,
    );
    if (c > 0)
      parts.push(
        `<text class="count" x="${Math.round((x + w / 2) * 10) / 10}" y="${y(c) - 3}" text-anchor="middle">${c}</text>`,
      );
    parts.push(
      `<text class="tick" x="${Math.round((left + i * bw) * 10) / 10}" y="${H - 6}" text-anchor="middle">${i}</text>`,
    );
  });
  parts.push(`<text class="tick" x="${W - 4}" y="${H - 6}" text-anchor="end">${counts.length}</text>`);
  return `<svg id="histogram-svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="Histogram of final scores, bins of 1 from 0 to ${counts.length}">${parts.join('')}</svg>`;
}
