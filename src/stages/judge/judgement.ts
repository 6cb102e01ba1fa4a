import { CRITERIA, type JudgeReport } from '../../domain/judge.js';
import type { DeterministicReport, Report } from '../../domain/report.js';
import type { Rubric } from '../../domain/rubric.js';
import { auditJudge } from './audit.js';
import { blend } from './blend.js';
import { PROMPT_VERSION } from './prompt.js';
import { creditJudge } from '../score/quality.js';

export interface Judgement {
  readonly status: JudgeReport['status'];
  readonly reason: string;
  readonly model: string | null;
  readonly cached: boolean;
  readonly attempts: JudgeReport['attempts'];
  readonly output: JudgeReport['output'];
  readonly priceIn: number;
  readonly priceOut: number;
}

export const skippedJudgement = (reason: string): Judgement => ({
  status: 'skipped',
  reason,
  model: null,
  cached: false,
  attempts: [],
  output: null,
  priceIn: 0,
  priceOut: 0,
});

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

/** Audits the judge's answer, blends, and builds the Report: the only place one is made. Pure. */
export function finalize(det: DeterministicReport, j: Judgement, rubric: Rubric): Report {
  const graded = det.status === 'graded';
  const credited = j.output ? creditJudge(j.output, det.scores.quality) : null;
  const flags =
    credited && graded
      ? auditJudge(credited, det.evidence.items, det.scores.deterministic, rubric.spec.blend.max_adjustment)
      : [];
  const why =
    j.status === 'skipped'
      ? `LLM weight 0: judge skipped (${j.reason})`
      : j.status === 'failed'
        ? `LLM weight 0: no judge answered (${j.reason})`
        : 'LLM weight 0';
  const weights = { deterministic: rubric.spec.blend.deterministic, llm: rubric.spec.blend.llm };
  const b = blend(det.scores.deterministic, graded ? credited : null, flags.length, rubric.spec.criteria, weights, why);
  const prompt = j.attempts.reduce((s, a) => s + a.promptTokens, 0);
  const completion = j.attempts.reduce((s, a) => s + a.completionTokens, 0);
  const judge: JudgeReport = {
    status: j.status,
    reason: j.reason,
    model: j.model,
    promptVersion: PROMPT_VERSION,
    cached: j.cached,
    attempts: j.attempts,
    output: j.output,
    tokens: { prompt, completion },
    costUsd: Math.round(((prompt * j.priceIn + completion * j.priceOut) / 1e6) * 1e6) / 1e6,
  };
  const { scores, ...rest } = det;
  return {
    ...rest,
    scores: {
      deterministic: scores.deterministic,
      llm: b.llm,
      final: graded ? b.final : 0,
      blend: { weights: b.weights, applied: b.applied, reason: b.reason, perCriterion: b.perCriterion },
      basis: basisText(det, b.applied, j.model, b.reason),
      unmeasured: scores.unmeasured,
      ...(scores.quality ? { quality: scores.quality } : {}),
    },
    flags: [...det.flags, ...flags],
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
  const { judge: _judge, scores, ...rest } = report;
  return {
    ...rest,
    scores: {
      deterministic: scores.deterministic,
      unmeasured: scores.unmeasured ?? [],
      ...(scores.quality ? { quality: scores.quality } : {}),
    },
  };
}
