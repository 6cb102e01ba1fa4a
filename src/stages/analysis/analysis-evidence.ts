import type { FileAnalysis } from '../../domain/analysis.js';
import type { ComplexityItem, Flag, LintItem } from '../../domain/report.js';
import {
  complexityFromEvidence,
  DEFAULT_COMPLEXITY_LIMITS,
  findingWeight,
  styleFromEvidence,
  type ComplexityLimits,
  type UnmeasurablePolicy,
} from './analysis-scores.js';

/** Lint findings as L1…, function metrics and policy findings as C1…, in file order. */
export function analysisEvidence(
  analyses: readonly FileAnalysis[],
  limits: ComplexityLimits,
): { lint: LintItem[]; complexity: ComplexityItem[] } {
  const lint: LintItem[] = [];
  const complexity: ComplexityItem[] = [];
  const sorted = [...analyses].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  for (const a of sorted) {
    // Lint ran on the file (a parse error is a finding of it); otherwise `blocked` says why not.
    const measured = a.skipped === null || a.skipped === 'parse_error';
    complexity.push({
      id: `C${complexity.length + 1}`,
      kind: 'complexity',
      rule: 'file',
      file: a.file,
      loc: a.metrics?.loc ?? 0,
      measured,
      metrics: a.metrics !== null,
      maxLoopNesting: a.metrics?.maxLoopNesting ?? 0,
      maxCyclomatic: a.metrics?.maxCyclomatic ?? 1,
      blocked: a.skipped,
    });
    for (const m of a.lint) {
      lint.push({
        id: `L${lint.length + 1}`,
        kind: 'lint',
        rule: m.rule,
        severity: m.severity,
        file: a.file,
        line: m.line,
        column: m.column,
        message: m.message,
        weight: findingWeight(m.rule, m.severity),
      });
    }
    for (const f of a.metrics?.functions ?? []) {
      const overLimit = f.maxLoopNesting > limits.max_loop_nesting || f.cyclomatic > limits.max_cyclomatic;
      complexity.push({
        id: `C${complexity.length + 1}`,
        kind: 'complexity',
        rule: 'function',
        file: a.file,
        ...f,
        overLimit,
      });
    }
    for (const p of a.metrics?.policy ?? []) {
      complexity.push({
        id: `C${complexity.length + 1}`,
        kind: 'complexity',
        rule: p.rule,
        file: a.file,
        line: p.line,
        column: p.column,
        message: p.message,
      });
    }
  }
  return { lint, complexity };
}

/** APIs a submission should not need are flagged for a human (the sandbox, not this flag, is the boundary). */
export function policyFlags(
  complexity: readonly ComplexityItem[],
): Omit<Flag, 'evidence'>[] & { evidence: string[] }[] {
  const byRule = new Map<string, ComplexityItem[]>();
  for (const c of complexity) if (c.rule.startsWith('policy.')) byRule.set(c.rule, [...(byRule.get(c.rule) ?? []), c]);
  return [...byRule.entries()].map(([rule, items]) => ({
    code: rule,
    severity: 'warning' as const,
    message: items.map((i) => ('message' in i ? `${i.file}:${i.line}: ${i.message}` : '')).join('; '),
    evidence: items.map((i) => i.id),
  }));
}

/** The style score of raw analyses, through the same evidence a report carries. */
export function styleScore(analyses: readonly FileAnalysis[], policy: UnmeasurablePolicy = 'zero'): number | null {
  const ev = analysisEvidence(analyses, DEFAULT_COMPLEXITY_LIMITS);
  return styleFromEvidence([...ev.lint, ...ev.complexity], policy);
}

/** The complexity score of raw analyses, through the same evidence a report carries. */
export function complexityScore(
  analyses: readonly FileAnalysis[],
  limits: ComplexityLimits,
  policy: UnmeasurablePolicy = 'zero',
): number | null {
  return complexityFromEvidence(analysisEvidence(analyses, limits).complexity, limits, policy);
}
