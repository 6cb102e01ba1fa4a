// judge.samples > 1: one judge asked n times with different seeds. What the report uses is each criterion's
// median and the first sample's claims; an item whose answers differ across samples is insufficient evidence
// (stages/items.ts); the spread is shown so an instructor sees how sure the model was.
import type { RubricItem } from '../../domain/items.js';
import { CRITERIA, type Criterion, type JudgeOutput, type Stability } from '../../domain/judge.js';

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

/** The samples' agreement, or undefined for a single answer. Pure. */
export function stabilityOf(outputs: readonly JudgeOutput[], items: readonly RubricItem[]): Stability | undefined {
  if (outputs.length < 2) return undefined;
  const spread = Object.fromEntries(
    CRITERIA.map((c) => {
      const xs = outputs.map((o) => o.scores[c]);
      return [c, Math.max(...xs) - Math.min(...xs)];
    }),
  ) as Record<Criterion, number>;
  return {
    samples: outputs.length,
    scores: outputs.map((o) => ({ ...o.scores })),
    spread,
    items: items.map((it) => {
      const answers = outputs.map((o) => o.items?.find((a) => a.id === it.id)?.applies ?? 'insufficient_evidence');
      return { id: it.id, answers, agreed: answers.every((a) => a === answers[0]) };
    }),
  };
}

/** The answer the report uses: the first sample with each criterion's median score. */
export function medianOutput(outputs: readonly JudgeOutput[]): JudgeOutput | null {
  const first = outputs[0];
  if (!first || outputs.length === 1) return first ?? null;
  const scores = Object.fromEntries(CRITERIA.map((c) => [c, median(outputs.map((o) => o.scores[c]))])) as Record<
    Criterion,
    number
  >;
  return { ...first, scores };
}
