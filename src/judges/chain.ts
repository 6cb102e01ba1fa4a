import type { JudgeCache } from '../adapters/judge-cache.js';
import type { JudgeAttempt, JudgeOutput } from '../domain/judge.js';
import { parseJudgeAnswer } from '../stages/judge/judge-parse.js';
import type { JudgePrompt } from '../stages/judge/prompt.js';
import { canonicalJson, sha256 } from '../util/hash.js';
import type { Limiter } from '../util/limiter.js';
import { JudgeCallError, type Judge, type JudgeRaw } from './types.js';

export const JUDGE_SEED = 20_240_601;

export interface ChainDeps {
  readonly judges: readonly Judge[];
  readonly cache: JudgeCache | null;
  readonly limiter: Limiter;
  /** Transient failures (503, 429, timeout) retried per judge before moving on. */
  readonly retries: number;
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  readonly sleep: (ms: number) => Promise<void>;
  /** Answers asked of the judge that answers (seeds JUDGE_SEED, +1, …); 1 asks once. */
  readonly samples: number;
}

/** Everything that shapes the answer: the cache key. */
export interface CacheKeyParts {
  readonly codeHash: string;
  readonly evidenceHash: string;
  readonly rubricHash: string;
}

export interface ChainResult {
  readonly status: 'answered' | 'failed';
  readonly judge: Judge | null;
  readonly output: JudgeOutput | null;
  /** Every sample's answer (the first is `output`); one entry unless judge.samples > 1. */
  readonly outputs: readonly JudgeOutput[];
  readonly cached: boolean;
  readonly attempts: JudgeAttempt[];
  readonly reason: string;
}

const cacheKey = (j: Judge, prompt: JudgePrompt, parts: CacheKeyParts, samples: number): string =>
  sha256(
    canonicalJson({
      judge: j.id,
      model: j.spec.model,
      promptVersion: prompt.version,
      promptHash: prompt.hash,
      ...parts,
      // One sample keeps the key it always had, so existing caches stay valid.
      ...(samples > 1 ? { samples } : {}),
    }),
  );

function attempt(
  j: Judge,
  outcome: JudgeAttempt['outcome'],
  t0: number,
  raw: JudgeRaw | null,
  err: JudgeCallError | null,
  error: string | null = null,
): JudgeAttempt {
  return {
    model: j.spec.model,
    judge: j.id,
    outcome,
    latencyMs: Math.round(performance.now() - t0),
    promptTokens: raw?.promptTokens ?? 0,
    completionTokens: raw?.completionTokens ?? 0,
    status: err?.status ?? null,
    error: error ?? err?.message ?? null,
  };
}

type Step = { done: ChainResult } | { next: 'retry' | 'malformed' | 'give_up'; waitMs: number };

/** One call: an answer, or what to do next. */
async function callOnce(
  j: Judge,
  prompt: JudgePrompt,
  deps: ChainDeps,
  attempts: JudgeAttempt[],
  transient: number,
  seed: number,
): Promise<Step> {
  const t0 = performance.now();
  try {
    const raw = await deps.limiter.run(() =>
      j.complete(
        { system: prompt.system, user: prompt.user, schema: prompt.schema, seed },
        AbortSignal.timeout(j.spec.timeout_ms),
      ),
    );
    const parsed = parseJudgeAnswer(raw.content, raw.finishReason, prompt.itemIds);
    if (parsed.ok) {
      attempts.push(attempt(j, 'ok', t0, raw, null));
      return {
        done: {
          status: 'answered',
          judge: j,
          output: parsed.value,
          outputs: [parsed.value],
          cached: false,
          attempts,
          reason: `answered by ${j.spec.model}`,
        },
      };
    }
    attempts.push(attempt(j, parsed.outcome, t0, raw, null, parsed.reason));
    return { next: 'malformed', waitMs: 0 };
  } catch (e) {
    const err = e instanceof JudgeCallError ? e : new JudgeCallError('transport_error', (e as Error).message);
    const outcome = err.kind === 'malformed' ? 'malformed' : err.kind;
    attempts.push(attempt(j, outcome, t0, null, err));
    if (err.kind === 'malformed') return { next: 'malformed', waitMs: 0 };
    const transientKind = err.kind === 'unavailable' || err.kind === 'rate_limited' || err.kind === 'timeout';
    if (!transientKind || transient >= deps.retries) return { next: 'give_up', waitMs: 0 };
    const backoff = Math.min(deps.maxBackoffMs, err.retryAfterMs ?? deps.backoffMs * 2 ** transient);
    return { next: 'retry', waitMs: backoff };
  }
}

/** One judge: a malformed answer gets one retry; 503/429/timeouts get bounded backoff honouring Retry-After. */
async function tryJudge(
  j: Judge,
  prompt: JudgePrompt,
  deps: ChainDeps,
  attempts: JudgeAttempt[],
  seed = JUDGE_SEED,
): Promise<ChainResult | null> {
  let malformed = 0;
  let transient = 0;
  for (;;) {
    const step = await callOnce(j, prompt, deps, attempts, transient, seed);
    if ('done' in step) return step.done;
    if (step.next === 'give_up') return null;
    if (step.next === 'malformed' && ++malformed > 1) return null;
    if (step.next === 'retry') {
      transient++;
      await deps.sleep(step.waitMs);
    }
  }
}

/**
 * The fallback chain: model 1 → model 2 → … → none. A judge's failure is not
 * a low grade: it is recorded and the next judge is asked; when all fail the
 * report is deterministic only and says why.
 */
export async function runChain(prompt: JudgePrompt, parts: CacheKeyParts, deps: ChainDeps): Promise<ChainResult> {
  const attempts: JudgeAttempt[] = [];
  // Any cached answer first, whichever judge gave it: a re-run makes no call at all.
  for (const j of deps.judges) {
    const hit = await deps.cache?.get(cacheKey(j, prompt, parts, deps.samples));
    if (hit) {
      attempts.push({
        model: j.spec.model,
        judge: j.id,
        outcome: 'cached',
        latencyMs: 0,
        promptTokens: 0,
        completionTokens: 0,
        status: null,
        error: null,
      });
      return {
        status: 'answered',
        judge: j,
        output: hit.output,
        outputs: hit.outputs ?? [hit.output],
        cached: true,
        attempts,
        reason: `answer of ${j.spec.model} reused from the cache`,
      };
    }
  }
  for (const j of deps.judges) {
    const key = cacheKey(j, prompt, parts, deps.samples);
    const first = await tryJudge(j, prompt, deps, attempts);
    if (first) {
      const res = await moreSamples(j, prompt, deps, first);
      const outputs = res.outputs.length > 1 ? { outputs: [...res.outputs] } : {};
      await deps.cache
        ?.put(key, { output: res.output as JudgeOutput, model: j.spec.model, judge: j.id, ...outputs })
        .catch(() => undefined);
      return res;
    }
  }
  const last = attempts.at(-1);
  return {
    status: 'failed',
    judge: null,
    output: null,
    outputs: [],
    cached: false,
    attempts,
    reason: `every judge failed${last ? ` (last: ${last.model} ${last.outcome})` : ''}`,
  };
}

/**
 * judge.samples > 1: the judge that answered is asked again with other seeds. A sample that fails is recorded
 * in the attempts and left out; the agreement is computed over the samples that answered.
 */
async function moreSamples(j: Judge, prompt: JudgePrompt, deps: ChainDeps, first: ChainResult): Promise<ChainResult> {
  const outputs = [...first.outputs];
  for (let k = 1; k < deps.samples; k++) {
    const next = await tryJudge(j, prompt, deps, first.attempts, JUDGE_SEED + k);
    if (next?.output) outputs.push(next.output);
  }
  return {
    ...first,
    outputs,
    reason: outputs.length > 1 ? `${first.reason} (${outputs.length} samples)` : first.reason,
  };
}
