import { z } from 'zod';

/** Student code is linted with correctness-flavoured rules as errors (weight 3) and taste as warnings (weight 1). */
export const DEFAULT_LINT_RULES: Readonly<Record<string, 'error' | 'warn' | ['error' | 'warn', ...unknown[]]>> = {
  // correctness: code that is probably wrong
  'no-undef': 'error',
  'no-unreachable': 'error',
  'no-dupe-keys': 'error',
  'no-duplicate-case': 'error',
  'no-const-assign': 'error',
  'no-func-assign': 'error',
  'no-import-assign': 'error',
  'no-self-assign': 'error',
  'no-self-compare': 'error',
  'use-isnan': 'error',
  'valid-typeof': 'error',
  'no-cond-assign': 'error',
  'no-fallthrough': 'error',
  'no-unsafe-finally': 'error',
  'no-unsafe-negation': 'error',
  'no-loss-of-precision': 'error',
  'no-compare-neg-zero': 'error',
  'no-sparse-arrays': 'error',
  'no-unmodified-loop-condition': 'error',
  'array-callback-return': 'error',
  'getter-return': 'error',
  'no-setter-return': 'error',
  'no-async-promise-executor': 'error',
  'no-promise-executor-return': 'error',
  'no-redeclare': 'error',
  'no-shadow-restricted-names': 'error',
  'no-constant-condition': 'error',
  eqeqeq: ['error', 'smart'],
  'no-eval': 'error',
  'no-implied-eval': 'error',
  // taste: code that is harder to read than it needs to be
  'no-unused-vars': ['warn', { args: 'none' }],
  'prefer-const': 'warn',
  'no-var': 'warn',
  curly: ['warn', 'multi-line'],
  'no-else-return': 'warn',
  'no-nested-ternary': 'warn',
  'no-param-reassign': 'warn',
  'no-lonely-if': 'warn',
  'no-useless-return': 'warn',
  'no-empty': 'warn',
  'no-debugger': 'warn',
  'consistent-return': 'warn',
  'max-depth': ['warn', 4],
  'max-params': ['warn', 5],
};

/** Rules that make no sense on TypeScript without type information. */
export const TS_OFF_RULES = ['no-undef', 'no-unused-vars', 'no-redeclare'] as const;

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
