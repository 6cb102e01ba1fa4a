import { z } from 'zod';
import { JudgeSpecSchema } from './judge.js';

/** The service/CLI configuration file (YAML), validated once at the edge with .strict(). */
export const ConfigSchema = z
  .object({
    /** The judge chain; a rubric's own `judges` or CLI --judge-* flags take precedence. */
    judges: z.array(JudgeSpecSchema).min(1).optional(),
    judge: z
      .object({
        concurrency: z.number().int().min(1).max(256).default(4),
        rate_per_minute: z.number().int().min(0).max(100_000).default(120),
        retries: z.number().int().min(0).max(10).default(2),
        backoff_ms: z.number().int().min(0).max(60_000).default(500),
        max_backoff_ms: z.number().int().min(0).max(300_000).default(10_000),
        cache_dir: z.string().min(1).default('.evigrade-cache/judge'),
      })
      .strict()
      .default({ concurrency: 4, rate_per_minute: 120, retries: 2, backoff_ms: 500, max_backoff_ms: 10_000, cache_dir: '.evigrade-cache/judge' }),
    http: z
      .object({ rate_per_minute: z.number().int().min(1).max(1_000_000).default(600) })
      .strict()
      .default({ rate_per_minute: 600 }),
    /** Bearer API keys for `evigrade serve` (EVIGRADE_API_KEYS adds more). */
    api_keys: z.array(z.string().min(16, 'API keys must be at least 16 characters')).default([]),
  })
  .strict();
export type Config = z.infer<typeof ConfigSchema>;
