// An instructor's decision on a rubric item wins over the judge. A decision taken after grading is applied to
// the report from the report alone (its items, the judge's answer, the graded text, the blend), exactly as
// `verify` recomputes it; a regrade passes the same decisions to finalize, so they survive it.
import { overridesOf, type ItemOverride } from '../../domain/items.js';
import type { Report } from '../../domain/report.js';
import { scoreItems, type BlendOutcome, type ItemContext } from './items.js';

/** What deciding items needs, read back from a report that has items. */
export function itemContextOf(r: Report): ItemContext {
  return {
    graded: r.status === 'graded',
    items: (r.scores.items?.results ?? []).map((i) => ({
      id: i.id,
      description: i.description,
      points: i.points,
      about: i.about,
      ...(i.criterion ? { criterion: i.criterion } : {}),
    })),
    criteria: r.rubric.criteria,
    files: r.submission.files,
    evidenceIds: new Set(r.evidence.items.map((i) => i.id)),
  };
}

/** The final score before items: the blend's, or the deterministic total when the LLM did not count. */
export const blendOutcomeOf = (r: Report): BlendOutcome => ({
  applied: r.scores.blend.applied,
  reason: r.scores.blend.reason,
  perCriterion: r.scores.blend.perCriterion,
  final: Math.round(Math.min(10, Math.max(0, r.scores.final - (r.scores.items?.delta ?? 0))) * 100) / 100,
});

/** The instructor's decisions already in the report. */
export const overridesIn = (r: Report): ItemOverride[] => overridesOf(r.scores.items);

/** The report with these decisions (added to the ones it has) applied to its items and final score. Pure. */
export function applyOverrides(r: Report, overrides: readonly ItemOverride[]): Report {
  if (!r.scores.items || r.status !== 'graded') return r;
  const scored = scoreItems(itemContextOf(r), r.judge.output, blendOutcomeOf(r), r.judge.stability, [
    ...overridesIn(r),
    ...overrides,
  ]).items;
  if (!scored) return r;
  const { final, ...items } = scored;
  const basis = r.scores.basis.replace(/; rubric items [+-]?[\d.]+$/, '');
  return {
    ...r,
    scores: {
      ...r.scores,
      final,
      items,
      basis: items.delta !== 0 ? `${basis}; rubric items ${items.delta > 0 ? '+' : ''}${items.delta}` : basis,
    },
  };
}
