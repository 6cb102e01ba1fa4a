import { CRITERIA, type Criterion, type JudgeOutput } from '../../domain/judge.js';
import type { DeterministicScores, EvidenceItem, Flag } from '../../domain/report.js';

/** Thresholds of the hallucination auditor; docs/judge.md lists them. */
export const AUDIT = {
  highScore: 8,
  /** A (near) perfect correctness score is never compatible with a failing test. */
  perfect: 9.5,
  lowPassRate: 5,
  manyLintErrorsWeight: 9,
  highConfidence: 0.8,
  minCitations: 2,
  /** Beyond max_adjustment a cited claim may justify up to this multiple; never more. */
  justifiedMultiple: 2,
} as const;

const BAD_TEST = new Set(['failed', 'error', 'timeout']);
const SEVERE_EVENTS = new Set(['timeout', 'memory_limit', 'output_limit', 'crash', 'incomplete', 'tampering']);
const PASS_CLAIM = /\b(T\d+)\b[^.;]{0,40}?\b(pass(?:es|ed)?|succeed(?:s|ed)?|works?|correct)\b/gi;

type AuditFlag = Flag & { claim: string | null };
const flag = (code: string, message: string, evidence: string[], claim: string | null = null): AuditFlag => ({
  code,
  severity: 'critical',
  message,
  evidence,
  claim,
});

/**
 * The hallucination auditor: a pure function from the judge's claims and the
 * measured evidence to flags. Any flag sets the LLM's weight in the blend to 0.
 */
export function auditJudge(
  out: JudgeOutput,
  items: readonly EvidenceItem[],
  det: DeterministicScores,
  maxAdjustment: number,
): AuditFlag[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  return [
    ...citationFlags(out, byId),
    ...contradictionFlags(out, byId),
    ...scoreFlags(out, items, det),
    ...boundFlags(out, det, maxAdjustment, byId),
  ];
}

function citationFlags(out: JudgeOutput, byId: Map<string, EvidenceItem>): AuditFlag[] {
  const flags: AuditFlag[] = [];
  for (const c of out.claims) {
    const missing = c.evidence.filter((id) => !byId.has(id));
    if (missing.length)
      flags.push(
        flag('judge.unknown_evidence', `cites evidence that does not exist: ${missing.join(', ')}`, missing, c.text),
      );
  }
  const cited = new Set(out.claims.flatMap((c) => c.evidence.filter((id) => byId.has(id))));
  if (out.confidence >= AUDIT.highConfidence && cited.size < AUDIT.minCitations) {
    flags.push(
      flag(
        'judge.confidence_without_citations',
        `confidence ${out.confidence} rests on ${cited.size} cited evidence item(s)`,
        [...cited],
      ),
    );
  }
  return flags;
}

function contradictionFlags(out: JudgeOutput, byId: Map<string, EvidenceItem>): AuditFlag[] {
  const flags: AuditFlag[] = [];
  for (const c of out.claims) {
    const bad = c.evidence.filter((id) => {
      const e = byId.get(id);
      return (
        c.polarity === 'strength' &&
        ((e?.kind === 'test' && BAD_TEST.has(e.status)) || (e?.kind === 'sandbox' && SEVERE_EVENTS.has(e.event)))
      );
    });
    for (const m of c.text.matchAll(PASS_CLAIM)) {
      const e = byId.get(m[1] as string);
      if (e?.kind === 'test' && BAD_TEST.has(e.status) && !bad.includes(e.id)) bad.push(e.id);
    }
    if (bad.length)
      flags.push(
        flag(
          'judge.contradicted_claim',
          `claims a strength its evidence contradicts (${bad.map((id) => `${id} ${describe(byId.get(id))}`).join(', ')})`,
          bad,
          c.text,
        ),
      );
  }
  return flags;
}

const describe = (e: EvidenceItem | undefined): string =>
  e?.kind === 'test' ? e.status : e?.kind === 'sandbox' ? e.event : '';

function scoreFlags(out: JudgeOutput, items: readonly EvidenceItem[], det: DeterministicScores): AuditFlag[] {
  const flags: AuditFlag[] = [];
  const failing = items.filter((i) => i.kind === 'test' && BAD_TEST.has(i.status)).map((i) => i.id);
  const perfectDespiteFailures = out.scores.correctness >= AUDIT.perfect && failing.length > 0;
  if (
    det.correctness !== null &&
    ((out.scores.correctness >= AUDIT.highScore && det.correctness < AUDIT.lowPassRate) || perfectDespiteFailures)
  ) {
    flags.push(
      flag(
        'judge.correctness_vs_tests',
        `correctness ${out.scores.correctness} while the weighted pass rate is ${det.correctness}/10 and ${failing.length} test(s) fail`,
        failing,
      ),
    );
  }
  const lint = items.filter((i) => i.kind === 'lint');
  const weight = lint.reduce((s, i) => s + (i.kind === 'lint' ? i.weight : 0), 0);
  if (out.scores.style >= AUDIT.highScore && weight >= AUDIT.manyLintErrorsWeight) {
    flags.push(
      flag(
        'judge.style_vs_lint',
        `style ${out.scores.style} despite lint findings of weight ${weight}`,
        lint.map((i) => i.id),
      ),
    );
  }
  const severe = items.filter((i) => i.kind === 'sandbox' && SEVERE_EVENTS.has(i.event)).map((i) => i.id);
  const praised = out.claims.some(
    (c) => c.polarity === 'strength' && (c.criterion === 'correctness' || c.criterion === 'edge_cases'),
  );
  if (severe.length && (praised || (det.correctness !== null && out.scores.correctness > det.correctness))) {
    flags.push(
      flag(
        'judge.correctness_despite_violation',
        'claims correctness although the run hit a timeout, crash or sandbox violation',
        severe,
      ),
    );
  }
  return flags;
}

function boundFlags(
  out: JudgeOutput,
  det: DeterministicScores,
  maxAdj: number,
  byId: Map<string, EvidenceItem>,
): AuditFlag[] {
  const flags: AuditFlag[] = [];
  for (const c of CRITERIA) {
    const d = det[c];
    if (d === null) continue;
    const delta = out.scores[c] - d;
    if (Math.abs(delta) <= maxAdj + 1e-9) continue;
    // Tests are the ground truth for correctness: no reason lifts it past the bound while one of them fails.
    const testsFail =
      (c === 'correctness' || c === 'edge_cases') &&
      delta > 0 &&
      [...byId.values()].some((e) => e.kind === 'test' && BAD_TEST.has(e.status));
    const justified = !testsFail && justifiedBy(out, c, delta > 0 ? 'strength' : 'weakness', byId);
    if (justified && Math.abs(delta) <= AUDIT.justifiedMultiple * maxAdj + 1e-9) continue;
    flags.push(
      flag(
        'judge.adjustment_out_of_bounds',
        `${c}: ${out.scores[c]} vs deterministic ${d} (more than ±${maxAdj}${justified ? ` even with a cited reason, limit ±${AUDIT.justifiedMultiple * maxAdj}` : ' without a cited reason'})`,
        [],
      ),
    );
  }
  return flags;
}

const justifiedBy = (
  out: JudgeOutput,
  c: Criterion,
  polarity: 'strength' | 'weakness',
  byId: Map<string, EvidenceItem>,
): boolean =>
  out.claims.some((cl) => cl.criterion === c && cl.polarity === polarity && cl.evidence.some((id) => byId.has(id)));
