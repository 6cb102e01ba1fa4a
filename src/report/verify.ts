import { ReportSchema, type DeterministicReport, type Report, type TestResult } from '../domain/report.js';
import { complexityFromEvidence, styleFromEvidence } from '../stages/analysis/analysis-scores.js';
import { auditJudge } from '../stages/judge/audit.js';
import { blend } from '../stages/judge/blend.js';
import { detectInjection } from '../stages/judge/injection.js';
import { shownFile } from '../stages/judge/shown.js';
import { scoreItems } from '../stages/judge/items.js';
import { injectionFlags } from '../stages/judge/judgement.js';
import { itemContextOf, overridesIn } from '../stages/judge/overrides.js';
import { creditJudge, creditQuality, LEGACY_QUALITY } from '../stages/score/quality.js';
import { deterministicScores } from '../stages/score/scores.js';
import { unmeasuredCriteria } from '../stages/score/unmeasured.js';
import { canonicalJson, sha256 } from '../util/hash.js';

export interface Difference {
  readonly field: string;
  readonly report: string;
  readonly recomputed: string;
}

const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const diff = (out: Difference[], field: string, report: unknown, recomputed: unknown): void => {
  if (canonicalJson(report) !== canonicalJson(recomputed))
    out.push({ field, report: show(report), recomputed: show(recomputed) });
};

/** Everything in a report that follows from its own evidence: hashes, scores, blend, audit. Pure. */
export function checkReport(r: Report): Difference[] {
  const out: Difference[] = [];
  diff(
    out,
    'submission.sha256',
    r.submission.sha256,
    r.submission.files.length
      ? sha256(canonicalJson(r.submission.files.map((f) => [f.path, f.sha256])))
      : r.submission.sha256,
  );
  for (const f of r.submission.files) {
    if (f.text !== undefined && !sourceMatches(f.text, f.sha256))
      out.push({ field: `submission.files.${f.path}.text`, report: 'text whose sha256 differs', recomputed: f.sha256 });
  }
  const T = r.evidence.items.filter((i) => i.kind === 'test');
  const S = r.evidence.items.filter((i) => i.kind === 'sandbox');
  const rest = r.evidence.items.filter((i) => i.kind !== 'test' && i.kind !== 'sandbox');
  diff(out, 'evidence.hash', r.evidence.hash, `sha256:${sha256(canonicalJson(r.evidence.items))}`);
  for (const t of r.tests) {
    const e = T.find((i) => i.id === t.id);
    diff(
      out,
      `tests.${t.id}`,
      pick(t),
      e
        ? { name: e.name, status: e.status, weight: e.weight, edgeCase: e.edgeCase, message: e.message }
        : 'missing from the evidence',
    );
  }
  diff(
    out,
    'sandbox.violations',
    r.sandbox.violations.map((v) => v.id),
    S.map((s) => s.id),
  );
  const policy = r.rubric.analysis?.unmeasurable ?? 'exclude';
  const measured = {
    style: styleFromEvidence(rest, policy),
    complexity: complexityFromEvidence(rest, r.rubric.complexity, policy),
  };
  const quality = creditQuality(measured, r.tests, r.rubric.quality ?? LEGACY_QUALITY);
  if (r.scores.quality || r.rubric.quality) diff(out, 'scores.quality', r.scores.quality ?? 'missing', quality);
  const det = deterministicScores(r.tests, r.rubric.criteria, quality.credited);
  diff(out, 'scores.deterministic', r.scores.deterministic, det);
  if (r.scores.unmeasured && r.status === 'graded') {
    const again = unmeasuredCriteria(det, r.rubric.criteria, r.tests, rest, policy);
    diff(out, 'scores.unmeasured', r.scores.unmeasured, again.unmeasured);
    diff(out, 'flags.score.unmeasured', r.flags.find((f) => f.code === 'score.unmeasured') ?? null, again.flag);
  }
  checkBlend(r, out);
  return out;
}

/** The graded text against its file's hash: intake decodes UTF-8 and drops a leading byte-order mark, so either form may be the file. */
const sourceMatches = (text: string, hash: string): boolean =>
  sha256(text) === hash || sha256(`\uFEFF${text}`) === hash;

const pick = (t: TestResult) => ({
  name: t.name,
  status: t.status,
  weight: t.weight,
  edgeCase: t.edgeCase,
  message: t.message,
});

/** Judge flags that set the LLM's weight to 0 (a bad quote voids only its item). */
const blocks = (code: string): boolean => code.startsWith('judge.') && code !== 'judge.bad_quote';

function checkBlend(r: Report, out: Difference[]): void {
  const det = r.scores.deterministic;
  const output = r.judge.output ? creditJudge(r.judge.output, r.scores.quality) : null;
  const judgeFlags =
    output && r.status === 'graded'
      ? auditJudge(output, r.evidence.items, det, r.rubric.maxAdjustment).map((f) => f.code)
      : [];
  const texts = r.submission.files.every((f) => f.text !== undefined);
  if (texts && r.status === 'graded') {
    const files = r.submission.files.map((f) => shownFile({ path: f.path, content: f.text ?? '' }));
    judgeFlags.push(...injectionFlags(detectInjection(files)).map((f) => f.code));
  }
  const reported = r.flags.filter((f) => blocks(f.code)).map((f) => f.code);
  for (const code of judgeFlags)
    if (!reported.includes(code))
      out.push({
        field: 'flags',
        report: `no ${code}`,
        recomputed: `${code} (the auditor raises it on this judge output)`,
      });
  if (r.scores.blend.applied && reported.length)
    out.push({
      field: 'scores.blend.applied',
      report: 'true',
      recomputed: `false (audit flags: ${reported.join(', ')})`,
    });
  if (r.status !== 'graded') return diff(out, 'scores.final', r.scores.final, 0);
  const again =
    r.scores.blend.applied && r.scores.llm && output
      ? blend(det, output, 0, r.rubric.criteria, r.scores.blend.weights, '')
      : null;
  if (again) diff(out, 'scores.llm.total', r.scores.llm?.total, again.llm?.total);
  const blended = again?.final ?? det.total;
  if (!r.scores.items) return diff(out, 'scores.final', r.scores.final, blended);
  checkItems(r, blended, again?.perCriterion ?? r.scores.blend.perCriterion, out);
}

/**
 * Items recomputed from the report alone: the judge's answer and the samples' agreement, the graded text
 * (every quote is checked again), the instructor's overrides the report carries, and the blend.
 */
function checkItems(
  r: Report,
  blended: number,
  perCriterion: Report['scores']['blend']['perCriterion'],
  out: Difference[],
): void {
  const items = r.scores.items;
  if (!items) return;
  const b = { applied: r.scores.blend.applied, reason: r.scores.blend.reason, perCriterion, final: blended };
  const again = scoreItems(itemContextOf(r), r.judge.output, b, r.judge.stability, overridesIn(r)).items;
  const decisions = (xs: readonly { id: string; decision: string; awarded: number }[]): string[] =>
    xs.map((x) => `${x.id}: ${x.decision} (${x.awarded})`);
  if (!again) return;
  diff(out, 'scores.items.results', decisions(items.results), decisions(again.results));
  diff(out, 'scores.final', r.scores.final, again.final);
}

/**
 * Why a parsed file is not a report at all (null when it looks like one): then `verify` says so rather
 * than listing every schema field a rubric or summary.json lacks. A report with a broken field is a report.
 */
export function whyNotAReport(raw: unknown): string | null {
  if (raw === undefined) return 'it is not JSON (a rubric.yaml? reports are JSON)';
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'it is JSON but not an object';
  const keys = Object.keys(raw);
  if (keys.includes('count') && keys.includes('meanFinal'))
    return 'it is a batch summary (summary.json); the reports are the other .json files beside it';
  if (!['submission', 'scores', 'evidence'].every((k) => keys.includes(k)))
    return 'it has no submission, scores and evidence';
  return null;
}

/** Parses a report file's JSON; a schema failure becomes differences naming the fields. */
export function parseReport(raw: unknown): { report: Report | null; differences: Difference[] } {
  const p = ReportSchema.safeParse(raw);
  if (p.success) return { report: p.data, differences: [] };
  return {
    report: null,
    differences: p.error.issues
      .slice(0, 20)
      .map((i) => ({ field: i.path.join('.') || '(report)', report: 'invalid', recomputed: i.message })),
  };
}

/** A re-run of the deterministic part against the report: inputs and measured results must match. */
export function compareRerun(r: Report, again: Report | DeterministicReport): Difference[] {
  const out: Difference[] = [];
  diff(out, 'rubric.sha256', r.rubric.sha256, again.rubric.sha256);
  // Reports older than the source field have no text: compare what both have (the text is checked against the hash above).
  const files = (x: Report | DeterministicReport) =>
    x.submission.files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.bytes }));
  diff(out, 'submission.files', files(r), files(again));
  diff(
    out,
    'tests',
    r.tests.map((t) => [t.id, t.name, t.status]),
    again.tests.map((t) => [t.id, t.name, t.status]),
  );
  diff(out, 'evidence.hash', r.evidence.hash, again.evidence.hash);
  diff(out, 'scores.deterministic', r.scores.deterministic, again.scores.deterministic);
  return out;
}
