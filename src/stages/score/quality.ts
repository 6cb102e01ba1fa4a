// Quality follows function: style and complexity are measured on any code, even code that does nothing
// (an empty file lints clean and has no loops), so by default they earn credit only in proportion to the
// tests the code passes. A rubric may choose another policy; the report records which one applied.
import type { JudgeOutput } from '../../domain/judge.js';
import type { QualityCredit, TestResult } from '../../domain/report.js';
import type { QualityPolicy } from '../../domain/rubric.js';
import { round2 } from '../../util/round.js';

/** Reports older than the `quality` key were computed without it: read them as `independent`. */
export const LEGACY_QUALITY: QualityPolicy = 'independent';

/** Weighted share of the counted (not skipped) tests that passed, on 0–1; null when no test counts. */
export function passShare(tests: readonly TestResult[]): number | null {
  const counted = tests.filter((t) => t.status !== 'skipped');
  const total = counted.reduce((s, t) => s + t.weight, 0);
  if (total === 0) return null;
  return counted.filter((t) => t.status === 'passed').reduce((s, t) => s + t.weight, 0) / total;
}

const FACTOR: Record<QualityPolicy, (share: number) => number> = {
  scaled: (share) => share,
  gated: (share) => (share > 0 ? 1 : 0),
  independent: () => 1,
};

function reasonOf(policy: QualityPolicy, share: number | null, factor: number): string {
  if (policy === 'independent') return 'independent: style and complexity count whatever the tests say';
  if (share === null) return `${policy}: no test counts, so style and complexity are not adjusted`;
  const passed = `${round2(share * 100)}% of the weighted tests passed`;
  if (policy === 'gated') return `gated: ${passed}, so style and complexity earn ${factor ? 'full' : 'no'} credit`;
  return `scaled: ${passed}, so style and complexity earn ${round2(factor * 100)}% of their measured score`;
}

/** The style and complexity a submission is credited with, and the record of how they were derived. Pure. */
export function creditQuality(
  measured: { style: number | null; complexity: number | null },
  tests: readonly TestResult[],
  policy: QualityPolicy,
): QualityCredit {
  const share = passShare(tests);
  const factor = share === null ? 1 : FACTOR[policy](share);
  const apply = (v: number | null): number | null => (v === null ? null : round2(v * factor));
  return {
    policy,
    factor: round2(factor),
    measured: { ...measured },
    credited: { style: apply(measured.style), complexity: apply(measured.complexity) },
    reason: reasonOf(policy, share, factor),
  };
}

/**
 * The judge's style and complexity under the same policy: otherwise an honest judge rating clean code 10
 * would be flagged out of bounds against the credited score, and the blend would give back what the
 * policy took. The judge's own answer stays in `judge.output`; the audit and blend see the credited one.
 */
export function creditJudge(output: JudgeOutput, quality: QualityCredit | undefined): JudgeOutput {
  if (!quality) return output;
  const f = (v: number): number => round2(v * quality.factor);
  return {
    ...output,
    scores: { ...output.scores, style: f(output.scores.style), complexity: f(output.scores.complexity) },
  };
}
