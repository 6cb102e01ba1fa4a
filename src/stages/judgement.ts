import { CRITERIA, type JudgeReport } from '../domain/judge.js';
import type { Report } from '../domain/report.js';
import type { Rubric } from '../domain/rubric.js';
import { auditJudge } from './audit.js';
import { blend } from './blend.js';
import { PROMPT_VERSION } from './prompt.js';

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

export const skippedJudgement = (reason: string): Judgement => ({ status: 'skipped', reason, model: null, cached: false, attempts: [], output: null, priceIn: 0, priceOut: 0 });

/** The deterministic-only blend every report starts from. */
export function deterministicBlend(report: Pick<Report, 'scores'>, rubric: Rubric, reason: string): Report['scores']['blend'] {
  const d = report.scores.deterministic;
  return {
    weights: { deterministic: rubric.spec.blend.deterministic, llm: rubric.spec.blend.llm },
    applied: false,
    reason,
    perCriterion: Object.fromEntries(CRITERIA.map((c) => [c, d[c]])) as Report['scores']['blend']['perCriterion'],
  };
}

/** Audits the judge's answer, blends, and folds both into the report. Pure. */
export function applyJudgement(report: Report, j: Judgement, rubric: Rubric): Report {
  const det = report.scores.deterministic;
  const flags = j.output && report.status === 'graded' ? auditJudge(j.output, report.evidence.items, det, rubric.spec.blend.max_adjustment) : [];
  const why = j.status === 'skipped' ? `LLM weight 0: judge skipped (${j.reason})` : j.status === 'failed' ? `LLM weight 0: no judge answered (${j.reason})` : 'LLM weight 0';
  const weights = { deterministic: rubric.spec.blend.deterministic, llm: rubric.spec.blend.llm };
  const b = blend(det, report.status === 'graded' ? j.output : null, flags.length, rubric.spec.criteria, weights, why);
  const prompt = j.attempts.reduce((s, a) => s + a.promptTokens, 0);
  const completion = j.attempts.reduce((s, a) => s + a.completionTokens, 0);
  const judge: JudgeReport = {
    status: j.status, reason: j.reason, model: j.model, promptVersion: PROMPT_VERSION, cached: j.cached, attempts: j.attempts, output: j.output,
    tokens: { prompt, completion }, costUsd: Math.round(((prompt * j.priceIn + completion * j.priceOut) / 1e6) * 1e6) / 1e6,
  };
  const basis = b.applied ? report.scores.basis.replace('deterministic only', 'blended') : report.scores.basis;
  return {
    ...report,
    judge,
    flags: [...report.flags, ...flags],
    scores: {
      ...report.scores,
      llm: b.llm,
      final: report.status === 'graded' ? b.final : 0,
      blend: { weights: b.weights, applied: b.applied, reason: b.reason, perCriterion: b.perCriterion },
      basis: basis.replace('; no LLM judge took part', b.applied ? `; judge ${j.model}` : `; ${b.reason}`),
    },
  };
}
