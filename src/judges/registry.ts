import { EvigradeError } from '../domain/errors.js';
import type { JudgeSpec } from '../domain/judge.js';
import { inferenceJudge } from './inference-client.js';
import type { Judge, JudgeEnv, JudgeFactory } from './types.js';

/** Every form of judge entry; a new kind of judge is one entry here. */
export const JUDGE_FACTORIES = {
  endpoint: {
    form: '{ model, endpointUrl } — a self-hosted OpenAI-compatible server (TGI, vLLM, Ollama, llama.cpp)',
    test: (s) => s.endpointUrl !== undefined,
    create: (s, env) => inferenceJudge(`endpoint:${s.endpointUrl}#${s.model}`, s, env.hfToken),
  },
  provider: {
    form: '{ model, provider } — a Hugging Face Inference Provider ("auto", "hf-inference", "together"…), needs HF_TOKEN',
    test: (s) => s.provider !== undefined,
    create: (s, env) =>
      env.hfToken
        ? inferenceJudge(`hf:${s.provider}:${s.model}`, s, env.hfToken)
        : { unusable: `${s.model} via Hugging Face needs HF_TOKEN` },
  },
} satisfies Record<string, JudgeFactory>;

export interface ResolvedChain {
  readonly judges: Judge[];
  /** Entries that cannot be used here, and why (reported when nothing is left). */
  readonly unusable: string[];
}

export function resolveChain(specs: readonly JudgeSpec[], env: JudgeEnv): ResolvedChain {
  const judges: Judge[] = [];
  const unusable: string[] = [];
  for (const spec of specs) {
    const factory = Object.values(JUDGE_FACTORIES).find((f) => f.test(spec));
    if (!factory) {
      const forms = Object.values(JUDGE_FACTORIES)
        .map((f) => `  ${f.form}`)
        .join('\n');
      throw new EvigradeError(
        'CONFIG_INVALID',
        `judge entry for model "${spec.model}" names neither provider nor endpointUrl; valid forms:\n${forms}`,
      );
    }
    const made = factory.create(spec, env);
    if ('unusable' in made) unusable.push(made.unusable);
    else judges.push(made);
  }
  return { judges, unusable };
}
