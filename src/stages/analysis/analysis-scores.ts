import type { EvidenceItem, FileItem, LintItem } from '../../domain/report.js';
import { PARSE_ERROR_WEIGHT, SEVERITY_WEIGHT } from '../../domain/lint.js';
import type { AnalysisLimits } from '../../domain/rubric.js';
import { round2 } from '../../util/round.js';

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
/**
 * What a file the submission made unmeasurable does to a criterion: `zero` scores the criterion 0 (a
 * student cannot make the grader look away), `exclude` leaves the file out. Reports older than the policy
 * carry none and are read as `exclude`, the behaviour they were computed with.
 */
export type UnmeasurablePolicy = AnalysisLimits['unmeasurable'];

/** Files whose lint could not run because of the file itself (a parse error is measured: it is a finding). */
export const blocksStyle = (f: FileItem): boolean => Boolean(f.blocked) && f.blocked !== 'parse_error';
/** Files whose functions could not be measured because of the file itself. */
export const blocksComplexity = (f: FileItem): boolean => Boolean(f.blocked);

/** The same formula over the evidence bundle, so a report can be re-checked from its own items. */
export function styleFromEvidence(
  items: readonly EvidenceItem[],
  policy: UnmeasurablePolicy = 'exclude',
): number | null {
  if (policy === 'zero' && items.filter(isFileItem).some(blocksStyle)) return 0;
  const files = items.filter(isFileItem).filter((f) => f.measured);
  if (files.length === 0) return null;
  const measured = new Set(files.map((f) => f.file));
  const penalty = items
    .filter((i): i is LintItem => i.kind === 'lint' && measured.has(i.file))
    .reduce((s, i) => s + i.weight, 0);
  const loc = files.reduce((s, f) => s + f.loc, 0);
  const density = (penalty * 100) / Math.max(loc, STYLE_MIN_LOC);
  return round2(clamp10(10 * (1 - density / STYLE_ZERO_DENSITY)));
}

export const isFileItem = (i: EvidenceItem): i is FileItem =>
  i.kind === 'complexity' && i.rule === 'file' && 'loc' in i;

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
 * measured over every function of every file. Null when no file could be measured; 0 under the `zero`
 * policy when the submission made a file unmeasurable.
 */
export function complexityFromEvidence(
  items: readonly EvidenceItem[],
  limits: ComplexityLimits,
  policy: UnmeasurablePolicy = 'exclude',
): number | null {
  if (policy === 'zero' && items.filter(isFileItem).some(blocksComplexity)) return 0;
  const metrics = items.filter(isFileItem).filter((f) => f.metrics);
  if (metrics.length === 0) return null;
  const nesting = metrics.reduce((m, f) => Math.max(m, f.maxLoopNesting), 0);
  const cyclomatic = metrics.reduce((m, f) => Math.max(m, f.maxCyclomatic), 1);
  const lost =
    NESTING_PENALTY * Math.max(0, nesting - limits.max_loop_nesting) +
    CYCLOMATIC_PENALTY * Math.max(0, cyclomatic - limits.max_cyclomatic);
  return round2(clamp10(10 - lost));
}
