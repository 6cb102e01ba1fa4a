import type { ItemOverride } from '../../domain/items.js';
import { CRITERIA, type JudgeOutput, type JudgeReport } from '../../domain/judge.js';
import type { DeterministicReport, Flag, Report } from '../../domain/report.js';
import type { Rubric } from '../../domain/rubric.js';
import { creditJudge } from '../score/quality.js';
import { auditJudge } from './audit.js';
import { blend } from './blend.js';
import type { InjectionFinding } from './injection.js';
import { scoreItems } from './items.js';
import { ITEMS_PROMPT_VERSION, PROMPT_VERSION } from './prompt.js';
import { medianOutput, stabilityOf } from './stability.js';

export interface Judgement {
  readonly status: JudgeReport['status'];
  readonly reason: string;
  readonly model: string | null;
  readonly cached: boolean;
  readonly attempts: JudgeReport['attempts'];
  readonly output: JudgeReport['output'];
  /** Every sample's answer (judge.samples); absent or one entry: `output` alone. */
  readonly outputs?: readonly JudgeOutput[];
  readonly priceIn: number;
  readonly priceOut: number;
  /** Text in the code addressed to the grader (stages/injection.ts), found whether or not a judge ran. */
  readonly injection?: readonly InjectionFinding[];
}

export const skippedJudgement = (reason: string, injection: readonly InjectionFinding[] = []): Judgement => ({
  status: 'skipped',
  reason,
  model: null,
  cached: false,
  attempts: [],
  output: null,
  priceIn: 0,
  priceOut: 0,
  injection,
});

/** One flag for every address to the grader: evidence for the instructor, and the LLM's weight is 0. */
export function injectionFlags(found: readonly InjectionFinding[]): Flag[] {
  if (found.length === 0) return [];
  const where = found.map((f) => `${f.file}:${f.line} ${f.kind} "${f.text}"`);
  return [
    {
      code: 'judge.injection_attempt',
      severity: 'critical',
      message: `the code addresses the grader (${where.slice(0, 8).join('; ')}${where.length > 8 ? `; ${where.length - 8} more` : ''}): the LLM's weight is 0 for this submission`,
      evidence: [],
      claim: null,
    },
  ];
}

/** Why the final score is what it is, in one sentence built from both halves. */
function basisText(det: DeterministicReport, applied: boolean, model: string | null, blendReason: string): string {
  if (det.status !== 'graded') return `not graded (${det.status}): ${det.errors.map((e) => e.code).join(', ')}`;
  const missing = CRITERIA.filter((c) => det.scores.deterministic[c] === null);
  const renorm = missing.length
    ? `; ${missing.join(' and ')} not measured (see scores.unmeasured), so the criteria weights renormalise over the rest`
    : '';
  const quality = det.scores.quality ? `; quality ${det.scores.quality.reason}` : '';
  return `${applied ? 'blended' : 'deterministic only'}: tests, lint and AST metrics${renorm}${quality}; ${applied ? `judge ${model}` : blendReason}`;
}

/** Every sample audited alike; a flag raised by any of them counts once. */
function auditAll(outputs: readonly JudgeOutput[], det: DeterministicReport, rubric: Rubric): Flag[] {
  const seen = new Set<string>();
  return outputs
    .flatMap((o) =>
      auditJudge(
        creditJudge(o, det.scores.quality),
        det.evidence.items,
        det.scores.deterministic,
        rubric.spec.blend.max_adjustment,
      ),
    )
    .filter((f) => {
      const key = `${f.code}|${f.message}|${f.claim ?? ''}`;
      return seen.has(key) ? false : (seen.add(key), true);
    });
}

/** Audits the judge's answer, blends, and builds the Report: the only place one is made. Pure. */
export function finalize(
  det: DeterministicReport,
  j: Judgement,
  rubric: Rubric,
  overrides: readonly ItemOverride[] = [],
): Report {
  const graded = det.status === 'graded';
  const outputs = j.outputs?.length ? j.outputs : j.output ? [j.output] : [];
  const used = medianOutput(outputs);
  const credited = used ? creditJudge(used, det.scores.quality) : null;
  const auditFlags = credited && graded ? auditAll(outputs, det, rubric) : [];
  const injection = graded ? injectionFlags(j.injection ?? []) : [];
  const why =
    j.status === 'skipped'
      ? `LLM weight 0: judge skipped (${j.reason})`
      : j.status === 'failed'
        ? `LLM weight 0: no judge answered (${j.reason})`
        : 'LLM weight 0';
  const weights = { deterministic: rubric.spec.blend.deterministic, llm: rubric.spec.blend.llm };
  const blocking = auditFlags.length + injection.length;
  const b0 = blend(det.scores.deterministic, graded ? credited : null, blocking, rubric.spec.criteria, weights, why);
  const b =
    injection.length && credited
      ? { ...b0, reason: 'LLM weight 0: the code addresses the grader (judge.injection_attempt)' }
      : b0;
  const stability = stabilityOf(outputs, rubric.spec.items);
  const ctx = {
    graded,
    items: rubric.spec.items,
    criteria: rubric.spec.criteria,
    files: det.submission.files,
    evidenceIds: new Set(det.evidence.items.map((i) => i.id)),
  };
  const scored = scoreItems(ctx, used, b, stability, overrides);
  const final = graded ? (scored.items?.final ?? b.final) : 0;
  const prompt = j.attempts.reduce((s, a) => s + a.promptTokens, 0);
  const completion = j.attempts.reduce((s, a) => s + a.completionTokens, 0);
  const judge: JudgeReport = {
    status: j.status,
    reason: j.reason,
    model: j.model,
    promptVersion: rubric.spec.items.length ? ITEMS_PROMPT_VERSION : PROMPT_VERSION,
    cached: j.cached,
    attempts: j.attempts,
    output: used,
    tokens: { prompt, completion },
    costUsd: Math.round(((prompt * j.priceIn + completion * j.priceOut) / 1e6) * 1e6) / 1e6,
    ...(stability ? { stability } : {}),
  };
  const { scores, ...rest } = det;
  const items = scored.items ? (({ final: _f, ...it }) => it)(scored.items) : null;
  return {
    ...rest,
    scores: {
      deterministic: scores.deterministic,
      llm: b.llm,
      final,
      blend: { weights: b.weights, applied: b.applied, reason: b.reason, perCriterion: b.perCriterion },
      basis:
        basisText(det, b.applied, j.model, b.reason) +
        (items && items.delta !== 0 ? `; rubric items ${items.delta > 0 ? '+' : ''}${items.delta}` : ''),
      unmeasured: scores.unmeasured,
      ...(scores.quality ? { quality: scores.quality } : {}),
      ...(items ? { items } : {}),
    },
    flags: [...det.flags, ...injection, ...auditFlags, ...scored.flags],
    judge,
  };
}

/**
 * The deterministic half of a report whose judge did not answer (so no audit flag was added), for asking
 * the judge again without measuring again.
 */
export function deterministicPart(report: Report): DeterministicReport {
  if (report.judge.status === 'answered')
    throw new Error('deterministicPart: the judge answered; its audit flags are part of the report');
  const { judge: _judge, scores, flags, ...rest } = report;
  return {
    ...rest,
    // The judge's half adds its flags again (judge.injection_attempt is raised whether or not a judge ran).
    flags: flags.filter((f) => !f.code.startsWith('judge.')),
    scores: {
      deterministic: scores.deterministic,
      unmeasured: scores.unmeasured ?? [],
      ...(scores.quality ? { quality: scores.quality } : {}),
    },
  };
}
