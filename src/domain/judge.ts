import { z } from 'zod';

import { CRITERIA } from './criteria.js';

export { CRITERIA, type Criterion } from './criteria.js';

/** One entry of the judge chain, as configured (config file, environment, rubric or CLI). */
export const JudgeSpecSchema = z
  .object({
    model: z.string().min(1),
    /** A Hugging Face Inference Provider ("hf-inference", "together", "auto"…); needs HF_TOKEN. */
    provider: z.string().min(1).optional(),
    /** A self-hosted OpenAI-compatible server (TGI, vLLM, Ollama, llama.cpp): requests go to <endpointUrl>/v1/chat/completions. */
    endpointUrl: z.string().url().optional(),
    /** How the server wants structured output: OpenAI's json_schema (vLLM, llama.cpp, Ollama, HF router) or TGI's grammar form. */
    structuredOutput: z.enum(['openai', 'tgi', 'none']).default('openai'),
    timeout_ms: z.number().int().positive().max(600_000).default(60_000),
    max_tokens: z.number().int().positive().max(32_768).default(1_024),
    /** Prices per million tokens, for cost accounting (0 for self-hosted). */
    price_in_per_mtok: z.number().nonnegative().default(0),
    price_out_per_mtok: z.number().nonnegative().default(0),
  })
  .strict()
  .refine((s) => !(s.provider && s.endpointUrl), { message: 'set either provider or endpointUrl, not both' });
export type JudgeSpec = z.infer<typeof JudgeSpecSchema>;

export const DEFAULT_JUDGE_CHAIN: readonly z.input<typeof JudgeSpecSchema>[] = [
  { model: 'Qwen/Qwen2.5-Coder-7B-Instruct', provider: 'auto' },
  { model: 'Qwen/Qwen2.5-Coder-1.5B-Instruct', provider: 'auto' },
  // starcoder2-15b is a base model without a chat template; its instruct variant is the chat fallback.
  { model: 'bigcode/starcoder2-15b-instruct-v0.1', provider: 'auto' },
];

const score10 = z.number().min(0).max(10);
const evidenceId = z.string().regex(/^[TSLC]\d+$/, 'an evidence id such as T3, S1, L2 or C4');

/** A span of the submission as the judge was shown it (comments removed, lines numbered from 1). */
export const CodeQuoteSchema = z
  .object({
    file: z.string().min(1).max(300),
    start_line: z.number().int().min(1),
    end_line: z.number().int().min(1),
    text: z.string().min(1).max(800),
  })
  .strict();
export const EvidenceQuoteSchema = z.object({ evidence: evidenceId }).strict();
export const QuoteSchema = z.union([CodeQuoteSchema, EvidenceQuoteSchema]);
export type Quote = z.infer<typeof QuoteSchema>;
export type CodeQuote = z.infer<typeof CodeQuoteSchema>;

const applies = z.union([z.boolean(), z.literal('insufficient_evidence')]);
export const ItemAnswerSchema = z
  .object({
    id: z.string(),
    applies,
    explanation: z.string().max(600),
    quotes: z.array(QuoteSchema).max(6),
  })
  .strict();
export type ItemAnswer = z.infer<typeof ItemAnswerSchema>;

/** What a judge must answer: strict JSON, nothing more, nothing less. */
export const JudgeOutputSchema = z
  .object({
    scores: z.object({ correctness: score10, edge_cases: score10, style: score10, complexity: score10 }).strict(),
    claims: z
      .array(
        z
          .object({
            criterion: z.enum(CRITERIA),
            /** strength: the evidence shows the submission doing well; weakness: doing badly. */
            polarity: z.enum(['strength', 'weakness']),
            text: z.string().min(1).max(600),
            evidence: z.array(evidenceId).max(20),
          })
          .strict(),
      )
      .max(20),
    confidence: z.number().min(0).max(1),
    insufficient_evidence: z.boolean(),
    summary: z.string().max(1200),
    /** One answer per rubric item, exactly the rubric's items (absent when the rubric has none). */
    items: z.array(ItemAnswerSchema).max(30).optional(),
  })
  .strict();
export type JudgeOutput = z.infer<typeof JudgeOutputSchema>;

/**
 * A judge asked n times (different seeds): `output` holds each criterion's median and the first sample's
 * claims; an item whose answers differ is insufficient evidence.
 */
export const StabilitySchema = z
  .object({
    samples: z.number().int().min(1),
    scores: z.array(
      z.object({ correctness: score10, edge_cases: score10, style: score10, complexity: score10 }).strict(),
    ),
    /** Highest minus lowest score per criterion across the samples. */
    spread: z
      .object({
        correctness: z.number().min(0),
        edge_cases: z.number().min(0),
        style: z.number().min(0),
        complexity: z.number().min(0),
      })
      .strict(),
    /** Each item's answers across the samples, and whether they all agree. */
    items: z.array(z.object({ id: z.string(), answers: z.array(applies), agreed: z.boolean() }).strict()),
  })
  .strict();
export type Stability = z.infer<typeof StabilitySchema>;

export const ATTEMPT_OUTCOMES = [
  'ok',
  'cached',
  'malformed',
  'truncated',
  'unavailable',
  'rate_limited',
  'timeout',
  'http_error',
  'transport_error',
] as const;
export const JudgeAttemptSchema = z
  .object({
    model: z.string(),
    judge: z.string(),
    outcome: z.enum(ATTEMPT_OUTCOMES),
    latencyMs: z.number().nonnegative(),
    promptTokens: z.number().int().nonnegative(),
    completionTokens: z.number().int().nonnegative(),
    status: z.number().int().nullable(),
    error: z.string().nullable(),
  })
  .strict();
export type JudgeAttempt = z.infer<typeof JudgeAttemptSchema>;

export const JudgeReportSchema = z
  .object({
    /** answered: a judge's output was used or audited; skipped: no judge configured or --no-llm; failed: every judge failed. */
    status: z.enum(['answered', 'skipped', 'failed']),
    reason: z.string(),
    model: z.string().nullable(),
    promptVersion: z.string(),
    cached: z.boolean(),
    attempts: z.array(JudgeAttemptSchema),
    output: JudgeOutputSchema.nullable(),
    tokens: z.object({ prompt: z.number().int().nonnegative(), completion: z.number().int().nonnegative() }).strict(),
    costUsd: z.number().nonnegative(),
    /** With `judge.samples` > 1 (absent otherwise): what each sample answered and how far they spread. */
    stability: StabilitySchema.optional(),
  })
  .strict();
export type JudgeReport = z.infer<typeof JudgeReportSchema>;
