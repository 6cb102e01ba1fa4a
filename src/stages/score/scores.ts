import type { Criteria } from '../../domain/rubric.js';
import type { DeterministicScores, TestResult } from '../../domain/report.js';
import { round2 } from '../../util/round.js';
import { passShare } from './quality.js';

/** Weighted pass rate on 0–10 over the tests that count (skipped ones do not); null if none count. */
export function passScore(tests: readonly TestResult[]): number | null {
  const share = passShare(tests);
  return share === null ? null : round2(10 * share);
}

/**
 * Deterministic scores. Criteria not measured (null) drop out and the rubric's
 * weights renormalise over those that were, so a total is always on 0–10.
 */
export function deterministicScores(
  tests: readonly TestResult[],
  criteria: Criteria,
  measured: { style: number | null; complexity: number | null },
): DeterministicScores {
  const correctness = passScore(tests.filter((t) => !t.edgeCase));
  const edge_cases = passScore(tests.filter((t) => t.edgeCase));
  const parts: [number, number | null][] = [
    [criteria.correctness, correctness],
    [criteria.edge_cases, edge_cases],
    [criteria.style, measured.style],
    [criteria.complexity, measured.complexity],
  ];
  const present = parts.filter(([w, s]) => s !== null && w > 0) as [number, number][];
  const weight = present.reduce((s, [w]) => s + w, 0);
  const total = weight === 0 ? 0 : round2(present.reduce((s, [w, v]) => s + w * v, 0) / weight);
  return { correctness, edge_cases, style: measured.style, complexity: measured.complexity, total };
}
