import { CRITERIA } from '../../domain/criteria.js';
/**
 * Defensive readers for report data. Every report string is student-controlled and a report read from
 * disk may be partial or malformed: the page reads each field through these and never throws on shape.
 */
export type Rec = Record<string, unknown>;

export const arr = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);
export const obj = (x: unknown): Rec => (x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Rec) : {});
export const num = (x: unknown): number | null => (typeof x === 'number' && isFinite(x) ? x : null);
export const str = (x: unknown): string =>
  x === null || x === undefined ? '' : typeof x === 'object' ? JSON.stringify(x) : String(x);
export function fmt(x: unknown): string {
  const n = num(x);
  return n === null ? '\u2014' : String(Math.round(n * 100) / 100);
}
export const yes = (x: unknown): string => (x === true ? 'yes' : x === false ? 'no' : '\u2014');
/** A class-name suffix from a closed list, so report text never becomes a class. */
export const known = (v: unknown, list: readonly string[]): string =>
  typeof v === 'string' && list.includes(v) ? v : 'other';
export const hex = (c: string): string => c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');

/** The criteria, from their one declaration. */
export const CRIT = CRITERIA;
export const STATUSES = ['graded', 'rejected', 'error'] as const;
export const TEST_ST = ['passed', 'failed', 'error', 'timeout', 'skipped'] as const;
export const SEVERITIES = ['critical', 'warning', 'info'] as const;

/** critical 0, warning 1, info 2, anything else after them: flags and notes sort by it, most severe first. */
export const severityRank = (s: unknown): number => {
  const i = SEVERITIES.indexOf(s as (typeof SEVERITIES)[number]);
  return i < 0 ? SEVERITIES.length : i;
};

/** A stable sort by severity (the input order is kept within a severity). */
export const bySeverity = <T>(list: readonly T[], sev: (x: T) => unknown): T[] =>
  list
    .map((x, i) => ({ x, i }))
    .sort((a, b) => severityRank(sev(a.x)) - severityRank(sev(b.x)) || a.i - b.i)
    .map((e) => e.x);

/** Evidence ids are short and alphanumeric; anything else is shown as text, never used in an id or a link. */
export const eidOk = (e: unknown): e is string => typeof e === 'string' && /^[A-Za-z0-9]{1,32}$/.test(e);
