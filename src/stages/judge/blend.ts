import { CRITERIA, type Criterion, type JudgeOutput } from '../../domain/judge.js';
import type { DeterministicScores } from '../../domain/report.js';
import type { Criteria } from '../../domain/rubric.js';
import { round2 } from '../../util/round.js';

export interface BlendResult {
  readonly llm: (Record<Criterion, number | null> & { total: number }) | null;
  readonly final: number;
  readonly perCriterion: Record<Criterion, number | null>;
  readonly applied: boolean;
  readonly reason: string;
  readonly weights: { readonly deterministic: number; readonly llm: number };
}

/** The judge's scores over the criteria that were measured, totalled with the rubric's weights. */
function llmScores(
  out: JudgeOutput,
  det: DeterministicScores,
  criteria: Criteria,
): Record<Criterion, number | null> & { total: number } {
  const s = Object.fromEntries(CRITERIA.map((c) => [c, det[c] === null ? null : out.scores[c]])) as Record<
    Criterion,
    number | null
  >;
  const measured = CRITERIA.filter((c) => s[c] !== null && criteria[c] > 0);
  const w = measured.reduce((a, c) => a + criteria[c], 0);
  const total = w === 0 ? 0 : round2(measured.reduce((a, c) => a + criteria[c] * (s[c] as number), 0) / w);
  return { ...s, total };
}

/**
 * final = deterministic weight × deterministic + LLM weight × LLM, per criterion
 * and in total — or the deterministic score alone when no judge answered or
 * any audit flag fired. The reason says which applied.
 */
export function blend(
  det: DeterministicScores,
  out: JudgeOutput | null,
  auditFlags: number,
  criteria: Criteria,
  weights: { deterministic: number; llm: number },
  why: string,
): BlendResult {
  const detOnly = Object.fromEntries(CRITERIA.map((c) => [c, det[c]])) as Record<Criterion, number | null>;
  if (!out) return { llm: null, final: det.total, perCriterion: detOnly, applied: false, reason: why, weights };
  const llm = llmScores(out, det, criteria);
  if (auditFlags > 0) {
    return {
      llm,
      final: det.total,
      perCriterion: detOnly,
      applied: false,
      reason: `LLM weight 0: the auditor raised ${auditFlags} flag(s)`,
      weights,
    };
  }
  const mix = (d: number, l: number): number => round2(weights.deterministic * d + weights.llm * l);
  const perCriterion = Object.fromEntries(
    CRITERIA.map((c) => [c, det[c] === null ? null : mix(det[c] as number, llm[c] as number)]),
  ) as Record<Criterion, number | null>;
  return {
    llm,
    final: mix(det.total, llm.total),
    perCriterion,
    applied: true,
    reason: `${weights.deterministic} × deterministic + ${weights.llm} × LLM`,
    weights,
  };
}
