import type { FileAnalysis } from '../domain/analysis.js';
import { PARSE_ERROR_WEIGHT, SEVERITY_WEIGHT } from '../domain/lint.js';

const round2 = (n: number): number => Math.round(n * 100) / 100;
const clamp10 = (n: number): number => Math.min(10, Math.max(0, n));

/** Lines below which a file counts as this long, so one slip in a 5-line file is not a disaster. */
export const STYLE_MIN_LOC = 50;
/** Weighted findings per 100 lines at which style reaches 0. */
export const STYLE_ZERO_DENSITY = 30;

export const findingWeight = (rule: string, severity: 'error' | 'warning'): number =>
  rule === 'parse-error' ? PARSE_ERROR_WEIGHT : rule.startsWith('analysis.') ? 0 : SEVERITY_WEIGHT[severity];

/**
 * style = 10 × (1 − density / 30), density = Σ weight × 100 / max(LOC, 50),
 * weight 3 per error-level (correctness) finding, 1 per warning (taste), 30 per
 * file that does not parse. Null when no file could be analysed.
 */
export function styleScore(analyses: readonly FileAnalysis[]): number | null {
  const measured = analyses.filter((a) => a.skipped !== 'too_large' && a.skipped !== 'timeout' && a.skipped !== 'failed');
  if (measured.length === 0) return null;
  const penalty = measured.reduce((s, a) => s + a.lint.reduce((t, m) => t + findingWeight(m.rule, m.severity), 0), 0);
  const loc = measured.reduce((s, a) => s + (a.metrics?.loc ?? 0), 0);
  const density = (penalty * 100) / Math.max(loc, STYLE_MIN_LOC);
  return round2(clamp10(10 * (1 - density / STYLE_ZERO_DENSITY)));
}

export interface ComplexityLimits {
  readonly max_loop_nesting: number;
  readonly max_cyclomatic: number;
}
export const DEFAULT_COMPLEXITY_LIMITS: ComplexityLimits = { max_loop_nesting: 2, max_cyclomatic: 10 };
/** Points lost per loop level beyond the rubric's limit, and per decision point beyond it in the worst function. */
export const NESTING_PENALTY = 2.5;
export const CYCLOMATIC_PENALTY = 1;

/**
 * complexity = 10 − 2.5 × (deepest loop nesting − limit)⁺ − 1 × (worst cyclomatic − limit)⁺,
 * measured over every function of every file. Null when no file could be measured.
 */
export function complexityScore(analyses: readonly FileAnalysis[], limits: ComplexityLimits): number | null {
  const metrics = analyses.flatMap((a) => (a.metrics ? [a.metrics] : []));
  if (metrics.length === 0) return null;
  const nesting = Math.max(0, ...metrics.map((m) => m.maxLoopNesting));
  const cyclomatic = Math.max(1, ...metrics.map((m) => m.maxCyclomatic));
  const lost = NESTING_PENALTY * Math.max(0, nesting - limits.max_loop_nesting) + CYCLOMATIC_PENALTY * Math.max(0, cyclomatic - limits.max_cyclomatic);
  return round2(clamp10(10 - lost));
}
