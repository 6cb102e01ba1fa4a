// Rubric items to points: the judge says whether each item applies and quotes what shows it; the auditor
// checks every quote (stages/quotes.ts); this file, never the model, decides each item and its points.
// An instructor's override wins over all of it.
import type { ItemAnswer, ItemOverride, ItemResult, ItemsScore, RubricItem } from '../../domain/items.js';
import { CRITERIA, type Criterion, type JudgeOutput, type Stability } from '../../domain/judge.js';
import type { Flag } from '../../domain/report.js';
import type { Criteria } from '../../domain/rubric.js';
import { round2 } from '../../util/round.js';
import { checkQuote } from './quotes.js';
import { shownFile, type ShownFile } from './shown.js';

export interface ItemInputs {
  readonly items: readonly RubricItem[];
  /** The judge's answers, or null when no answer may be used (skipped, failed, LLM weight 0). */
  readonly answers: readonly ItemAnswer[] | null;
  /** Why answers are null, for the report. */
  readonly unusable: string;
  readonly stability: Stability | undefined;
  readonly files: readonly ShownFile[];
  readonly evidenceIds: ReadonlySet<string>;
  readonly overrides: readonly ItemOverride[];
}

const result = (
  it: RubricItem,
  decision: ItemResult['decision'],
  reason: string,
  extra: Partial<ItemResult> = {},
): ItemResult => ({
  id: it.id,
  description: it.description,
  criterion: it.criterion ?? null,
  points: it.points,
  about: it.about,
  decision,
  source: 'judge',
  awarded: decision === 'applies' ? it.points : 0,
  reason,
  quotes: [],
  ...extra,
});

/** The instructor's latest decision on each item. */
function latest(overrides: readonly ItemOverride[]): Map<string, ItemOverride> {
  const m = new Map<string, ItemOverride>();
  for (const o of [...overrides].sort((a, b) => a.at.localeCompare(b.at))) m.set(o.item, o);
  return m;
}

function fromJudge(it: RubricItem, a: ItemAnswer | undefined, inp: ItemInputs, flags: Flag[]): ItemResult {
  if (!a) return result(it, 'not_assessed', 'the judge gave no answer for this item');
  const answers = inp.stability?.items.find((s) => s.id === it.id);
  const spread = answers && answers.answers.length > 1 ? { answers: answers.answers } : {};
  const checks = a.quotes.map((q) => ({ q, check: checkQuote(q, inp.files, inp.evidenceIds, it.about) }));
  const bad = checks.filter((c) => !c.check.ok);
  for (const b of bad) {
    const why = (b.check as { reason: string }).reason;
    flags.push({
      code: 'judge.bad_quote',
      severity: 'warning',
      message: `item ${it.id}: ${why}; the item counts for nothing`,
      evidence: 'evidence' in b.q ? [b.q.evidence] : [],
      claim: 'evidence' in b.q ? b.q.evidence : `${b.q.file}:${b.q.start_line}-${b.q.end_line} ${b.q.text}`,
    });
  }
  if (bad.length)
    return result(it, 'void', `a quote does not check out: ${(bad[0]?.check as { reason: string }).reason}`, spread);
  if (answers && !answers.agreed)
    return result(it, 'insufficient_evidence', `the judge's samples disagree (${answers.answers.join(', ')})`, spread);
  const quotes = checks.map((c) => c.q);
  if (a.applies === 'insufficient_evidence')
    return result(it, 'insufficient_evidence', 'the judge found the evidence insufficient', { quotes, ...spread });
  if (a.applies === false)
    return result(it, 'does_not_apply', a.explanation || 'the judge says it does not apply', { quotes, ...spread });
  if (quotes.length === 0)
    return result(it, 'insufficient_evidence', 'the judge says it applies but quotes nothing that shows it', spread);
  return result(it, 'applies', a.explanation || 'the judge says it applies', { quotes, ...spread });
}

/** Each item decided: an override, else the judge's answer as the auditor lets it stand. Pure. */
export function decideItems(inp: ItemInputs): { results: ItemResult[]; flags: Flag[] } {
  const flags: Flag[] = [];
  const overrides = latest(inp.overrides);
  const results = inp.items.map((it) => {
    const o = overrides.get(it.id);
    if (o) {
      const decision = o.applies ? 'applies' : 'does_not_apply';
      return result(it, decision, `instructor ${o.by}: ${o.why}`, { source: 'override', override: o });
    }
    if (!inp.answers) return result(it, 'not_assessed', inp.unusable);
    return fromJudge(
      it,
      inp.answers.find((a) => a.id === it.id),
      inp,
      flags,
    );
  });
  return { results, flags };
}

const clamp10 = (x: number): number => Math.min(10, Math.max(0, x));

/**
 * The items' points on the final score: an item with a criterion moves that criterion's score (within 0–10),
 * which moves the total by the criterion's share of the weights measured; an item of its own moves the final
 * score directly. The final score stays within 0–10.
 */
export function itemPoints(
  results: readonly ItemResult[],
  perCriterion: Readonly<Record<Criterion, number | null>>,
  criteria: Criteria,
  final: number,
): ItemsScore & { final: number } {
  const byCriterion: Record<string, number> = {};
  let own = 0;
  for (const r of results) {
    if (r.criterion) byCriterion[r.criterion] = round2((byCriterion[r.criterion] ?? 0) + r.awarded);
    else own = round2(own + r.awarded);
  }
  const measured = CRITERIA.filter((c) => perCriterion[c] !== null && criteria[c] > 0);
  const w = measured.reduce((a, c) => a + criteria[c], 0);
  const moved = measured.reduce((a, c) => {
    const before = perCriterion[c] as number;
    return a + (criteria[c] / w) * (clamp10(before + (byCriterion[c] ?? 0)) - before);
  }, 0);
  const after = round2(clamp10(final + (w === 0 ? 0 : moved) + own));
  return { results: [...results], byCriterion, own, delta: round2(after - final), final: after };
}

/** What deciding items needs from a report, whether it is being made (finalize) or checked (verify). */
export interface ItemContext {
  readonly graded: boolean;
  readonly items: readonly RubricItem[];
  readonly criteria: Criteria;
  /** The graded files' text (reports carry it). */
  readonly files: readonly { readonly path: string; readonly text?: string | undefined }[];
  readonly evidenceIds: ReadonlySet<string>;
}

export interface BlendOutcome {
  readonly applied: boolean;
  readonly reason: string;
  readonly perCriterion: Readonly<Record<Criterion, number | null>>;
  readonly final: number;
}

/** The rubric's items decided and turned into points (null when the rubric has none). Pure. */
export function scoreItems(
  ctx: ItemContext,
  used: JudgeOutput | null,
  b: BlendOutcome,
  stability: Stability | undefined,
  overrides: readonly ItemOverride[],
): { items: (ItemsScore & { final: number }) | null; flags: Flag[] } {
  if (ctx.items.length === 0 || !ctx.graded) return { items: null, flags: [] };
  const decided = decideItems({
    items: ctx.items,
    answers: used?.items && b.applied ? used.items : null,
    unusable: used ? b.reason : 'no judge answer',
    stability,
    files: ctx.files.map((f) => shownFile({ path: f.path, content: f.text ?? '' })),
    evidenceIds: ctx.evidenceIds,
    overrides,
  });
  return { items: itemPoints(decided.results, b.perCriterion, ctx.criteria, b.final), flags: decided.flags };
}
