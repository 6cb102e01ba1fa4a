import { z } from 'zod';

// The rule table lives apart from the schema below so a lint thread can read it without loading zod (≈ 56 ms of
// every thread's start).
export { DEFAULT_LINT_RULES, TS_OFF_RULES } from './lint-rules.js';

const level = z.enum(['off', 'warn', 'error']);
export const LintSpecSchema = z
  .object({
    rules: z.record(z.string(), z.union([level, z.tuple([level]).rest(z.unknown())])).default({}),
    /** Extra globals the assignment provides (e.g. a browser exercise). */
    globals: z.array(z.string().regex(/^[A-Za-z_$][\w$]*$/)).default([]),
  })
  .strict();
export type LintSpec = z.infer<typeof LintSpecSchema>;

export const SEVERITY_WEIGHT = { error: 3, warning: 1 } as const;
/** Code that does not parse cannot have good style; one such file outweighs ten lint errors. */
export const PARSE_ERROR_WEIGHT = 30;
