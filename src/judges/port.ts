import { cacheDir } from '../runtime/cache.js';
import { createJudgeCache } from '../adapters/judge-cache.js';
import type { Config } from '../domain/config.js';
import { DEFAULT_JUDGE_CHAIN, JudgeSpecSchema, type JudgeSpec } from '../domain/judge.js';
import type { DeterministicReport } from '../domain/report.js';
import type { Rubric } from '../domain/rubric.js';
import type { Submission } from '../domain/submission.js';
import { detectInjection } from '../stages/judge/injection.js';
import { shownFile } from '../stages/judge/shown.js';
import { skippedJudgement, type Judgement } from '../stages/judge/judgement.js';
import { buildPrompt } from '../stages/judge/prompt.js';
import { createLimiter, type Pace } from '../util/limiter.js';
import { runChain, type ChainDeps } from './chain.js';
import { loadInferenceClient } from './inference-client.js';
import { resolveChain, type ResolvedChain } from './registry.js';
import type { JudgeEnv } from './types.js';

export interface JudgePort {
  judge(report: DeterministicReport, sub: Submission, rubric: Rubric): Promise<Judgement>;
  /** The chain `judge` uses for a rubric (without one: a rubric with no `judges:` of its own), by the same precedence. */
  describe(rubric?: Rubric): JudgeChainInfo;
}

export interface JudgeChainInfo {
  /** Why judging is off (--no-llm), or null. */
  readonly disabled: string | null;
  /** Where the chain comes from: --judge-* flags, the rubric, the configuration, or the built-in default. */
  readonly source: 'cli' | 'rubric' | 'config' | 'default';
  /** The models that will be asked, in order. */
  readonly chain: readonly string[];
  /** Entries that cannot be used here, and why. */
  readonly unusable: readonly string[];
}

export interface JudgeSetup {
  /** Set (with the reason) when judging is off, e.g. --no-llm. */
  readonly disabled: string | null;
  /** From --judge-endpoint/--judge-model: overrides rubric and configuration. */
  readonly cliSpecs: readonly JudgeSpec[] | null;
  readonly config: Pick<Config, 'judges' | 'judge'>;
  readonly env: JudgeEnv;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Shared spacing of judge calls across submitters (from the job queue), if any. */
  readonly pace?: Pace;
}

const DEFAULTS = DEFAULT_JUDGE_CHAIN.map((s) => JudgeSpecSchema.parse(s));

function skipReason(chain: ResolvedChain): string {
  return chain.unusable.length
    ? `HF_TOKEN is not set (needed by ${chain.unusable.length} Hugging Face judge(s)) and no judge endpoint is configured (--judge-endpoint URL --judge-model NAME)`
    : 'no judge configured';
}

/** The judge stage as a port: picks the chain (CLI > rubric > config > default), then runs it. */
export function createJudgePort(setup: JudgeSetup): JudgePort {
  const sleep = setup.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const c = setup.config.judge;
  const limiter = createLimiter(c.concurrency, c.rate_per_minute, sleep, setup.pace);
  const cache = createJudgeCache(c.cache_dir ?? cacheDir('judge'));
  const chains = new Map<string, ResolvedChain>();
  // The one precedence: CLI flags > the rubric's judges > the configuration's > the default chain.
  const specsFor = (rubric: Rubric | undefined): { source: JudgeChainInfo['source']; specs: readonly JudgeSpec[] } =>
    setup.cliSpecs
      ? { source: 'cli', specs: setup.cliSpecs }
      : rubric?.spec.judges
        ? { source: 'rubric', specs: rubric.spec.judges }
        : setup.config.judges
          ? { source: 'config', specs: setup.config.judges }
          : { source: 'default', specs: DEFAULTS };
  const chainFor = (rubric: Rubric | undefined): ResolvedChain => {
    const key = rubric?.sha256 ?? '';
    if (!chains.has(key)) chains.set(key, resolveChain(specsFor(rubric).specs, setup.env));
    return chains.get(key) as ResolvedChain;
  };
  return {
    describe(rubric) {
      const chain = chainFor(rubric);
      return {
        disabled: setup.disabled,
        source: specsFor(rubric).source,
        chain: chain.judges.map((j) => j.spec.model),
        unusable: chain.unusable,
      };
    },
    async judge(report, sub, rubric) {
      // Found on every submission, judge or not: text addressed to the grader is evidence for the instructor.
      const shown = sub.files.map(shownFile);
      const injection = detectInjection(shown);
      if (setup.disabled) return skippedJudgement(setup.disabled, injection);
      if (report.status !== 'graded')
        return skippedJudgement(`the submission was not graded (${report.status})`, injection);
      const chain = chainFor(rubric);
      if (chain.judges.length === 0) return skippedJudgement(skipReason(chain), injection);
      await loadInferenceClient();
      const prompt = buildPrompt(rubric, report.scores.deterministic, report.evidence.items, shown, injection);
      const deps: ChainDeps = {
        judges: chain.judges,
        cache,
        limiter,
        retries: c.retries,
        backoffMs: c.backoff_ms,
        maxBackoffMs: c.max_backoff_ms,
        sleep,
        samples: c.samples,
      };
      const res = await runChain(
        prompt,
        { codeHash: sub.sha256, evidenceHash: report.evidence.hash, rubricHash: rubric.sha256 },
        deps,
      );
      const spec = res.judge?.spec;
      return {
        status: res.status,
        reason: res.reason,
        model: spec?.model ?? null,
        cached: res.cached,
        attempts: res.attempts,
        output: res.output,
        outputs: res.outputs,
        injection,
        priceIn: spec?.price_in_per_mtok ?? 0,
        priceOut: spec?.price_out_per_mtok ?? 0,
      };
    },
  };
}
