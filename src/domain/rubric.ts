import { z } from 'zod';
import { LANGUAGE_NAMES } from './languages.js';
import { ItemsSchema } from './items.js';
import { JudgeSpecSchema } from './judge.js';
import { LintSpecSchema } from './lint.js';
import { HintMapSchema, StudentPolicySchema, VisibilityMapSchema } from './visibility.js';
import { AuditSpecSchema } from './audit.js';

const positiveInt = z.number().int().positive();

export const LimitsSchema = z
  .object({
    timeout_ms: positiveInt.min(200).max(600_000).default(10_000).describe('wall clock for one sandboxed run'),
    test_timeout_ms: positiveInt.max(600_000).default(5_000).describe("per-test timeout, as Jest's default"),
    memory_mb: positiveInt.min(64).max(16_384).default(512),
    output_kb: positiveInt.max(65_536).default(256).describe('stdout+stderr bytes kept per run'),
    pids: positiveInt.min(8).max(4_096).default(64),
    open_files: positiveInt.min(32).max(65_536).default(256),
    file_size_kb: positiveInt.max(1_048_576).default(1_024),
    tmp_kb: positiveInt.max(1_048_576).default(8_192),
    max_files: positiveInt.max(10_000).default(64),
    max_bytes: positiveInt.max(100_000_000).default(1_000_000),
    total_timeout_ms: positiveInt
      .min(200)
      .max(3_600_000)
      .optional()
      .describe(
        'what the tests the grader stops at their own time limit may take together, each counted at its limit: past it the rest are not resumed (default 3 × timeout_ms)',
      ),
  })
  .strict();

/** A submission's time budget for tests stopped from outside at their own limit (each charged its limit). */
export const totalTimeoutMs = (l: Limits): number => l.total_timeout_ms ?? 3 * l.timeout_ms;

/**
 * One entry of the rubric's `test_limits`: a test's or a group's own time limit (its per-test timeout, as
 * `limits.test_timeout_ms` for every other test) and memory limit (such tests run in a job of their own with it).
 */
export const TestLimitSchema = z
  .object({
    time_ms: positiveInt
      .min(100)
      .max(600_000)
      .optional()
      .describe(
        "the test's own time limit, in its own time (overrides limits.test_timeout_ms and the test's own timeout)",
      ),
    memory_mb: positiveInt
      .min(64)
      .max(16_384)
      .optional()
      .describe('the memory limit of the job its tests run in (overrides limits.memory_mb for them)'),
  })
  .strict()
  .refine((l) => l.time_ms !== undefined || l.memory_mb !== undefined, {
    message: 'give time_ms, memory_mb or both',
  });
export type TestLimit = z.infer<typeof TestLimitSchema>;

/**
 * What analysing a file may cost, and what a file the submission makes unmeasurable scores. Part of the
 * rubric (and its hash), never of the grader's configuration: these decide scores.
 */
export const AnalysisLimitsSchema = z
  .object({
    max_code_kb: positiveInt
      .max(16_384)
      .default(256)
      .describe('code bytes of one file, comments and blank lines excluded, above which it is not analysed'),
    cpu_ms: positiveInt
      .min(100)
      .max(600_000)
      .default(5_000)
      .describe(
        "CPU time one file's lint and metrics may take (type checking gets 4×); counted on the analysing thread, never wall time",
      ),
    unmeasurable: z
      .enum(['zero', 'exclude'])
      .default('zero')
      .describe(
        'a file too large, too deep or too slow to analyse scores 0 on style and complexity (zero), or is left out of them (exclude)',
      ),
  })
  .strict();

/**
 * How style and complexity relate to the tests: `scaled` (default) credits them in proportion to the
 * weighted tests passed, `gated` in full once any test passes, `independent` whatever the tests say.
 */
export const QUALITY_POLICIES = ['scaled', 'gated', 'independent'] as const;
export type QualityPolicy = (typeof QUALITY_POLICIES)[number];

const unit = z.number().min(0).max(1);
export const CriteriaSchema = z
  .object({
    correctness: unit.default(0.6),
    edge_cases: unit.default(0.2),
    style: unit.default(0.1),
    complexity: unit.default(0.1),
  })
  .strict()
  .superRefine((c, ctx) => {
    const sum = c.correctness + c.edge_cases + c.style + c.complexity;
    if (Math.abs(sum - 1) >= 1e-6)
      ctx.addIssue({
        code: 'custom',
        message: `criteria weights must sum to 1, and these sum to ${+sum.toFixed(6)} (${c.correctness} + ${c.edge_cases} + ${c.style} + ${c.complexity})`,
      });
  });

export const BlendSchema = z
  .object({
    deterministic: unit.default(0.6),
    llm: unit.default(0.4),
    max_adjustment: z.number().min(0).max(10).default(2),
  })
  .strict()
  .superRefine((b, ctx) => {
    const sum = b.deterministic + b.llm;
    if (Math.abs(sum - 1) >= 1e-6)
      ctx.addIssue({
        code: 'custom',
        message: `blend.deterministic + blend.llm must equal 1, and ${b.deterministic} + ${b.llm} = ${+sum.toFixed(6)}`,
      });
  });

const relPath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split(/[\\/]/).includes('..'), {
    message: 'must be a relative path without ".."',
  });

/**
 * Node built-ins a rubric may grant to submissions beyond the harness's default set (docs/harness.md, "What the
 * submission can reach"). None of them reaches the harness's objects: `async_hooks` and
 * `diagnostics_channel` (which observe the harness's own resources), `vm`, `module`, `worker_threads`, `v8`,
 * `inspector`, `repl` and `cluster` are never grantable.
 */
export const GRANTABLE_BUILTINS = [
  'dgram',
  'http2',
  'perf_hooks',
  'punycode',
  'readline/promises',
  'stream/consumers',
  'stream/promises',
  'stream/web',
  'tty',
  'util/types',
] as const;

export const RubricSchema = z
  .object({
    id: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9._-]{0,63}$/,
        'lowercase letters, digits, ".", "_" or "-", starting with a letter or digit',
      ),
    title: z.string().min(1),
    language: z.enum(LANGUAGE_NAMES),
    statement: z.string().min(1),
    entry: z.string().regex(/^\.\/[A-Za-z0-9_.-]+$/, 'a sibling module such as "./leap" or "./leap.js"'),
    tests: z.array(relPath).min(1),
    weights: z.record(z.string(), z.number().positive()).default({}),
    edge_cases: z.array(z.string().min(1)).default([]),
    limits: LimitsSchema.default(LimitsSchema.parse({})),
    /** Per test, group or test file (selectors as `visibility`; the most specific wins): its own time and memory limits. */
    test_limits: z.record(z.string().min(1), TestLimitSchema).optional(),
    criteria: CriteriaSchema.default(CriteriaSchema.parse({})),
    blend: BlendSchema.default(BlendSchema.parse({})),
    complexity: z
      .object({ max_loop_nesting: positiveInt.default(2), max_cyclomatic: positiveInt.default(10) })
      .strict()
      .optional(),
    lint: LintSpecSchema.default(LintSpecSchema.parse({})),
    analysis: AnalysisLimitsSchema.default(AnalysisLimitsSchema.parse({})),
    quality: z
      .enum(QUALITY_POLICIES)
      .default('scaled')
      .describe(
        'style and complexity credited in proportion to the tests passed (scaled), only once one passes (gated), or regardless (independent)',
      ),
    reference: relPath.optional(),
    /** Further Node built-ins the submission may load (absent: the default set only). */
    builtins: z.array(z.enum(GRANTABLE_BUILTINS)).optional(),
    /** What students see of each test (selector → visible | hidden | after_due); unmatched tests are hidden. */
    visibility: VisibilityMapSchema.default({}),
    /** A hint per test (selector → text), shown to the student when the test does not pass. */
    hint: HintMapSchema.default({}),
    /** The student view as a whole: whether scores wait for released tests, and when after_due tests are released. */
    student: StudentPolicySchema.default(StudentPolicySchema.parse({})),
    /** A judge chain for this rubric only (overrides the configuration's). */
    judges: z.array(JudgeSpecSchema).min(1).optional(),
    /** Statements the judge answers per item with quoted code; code turns verified answers into points. */
    items: ItemsSchema.default([]),
    /** `evigrade audit`: mutant ids to ignore (each with a reason) and the flakiness repeats. */
    audit: AuditSpecSchema.optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    // A test's own limit above its job's would never be reached: the job's would stop it first.
    for (const [sel, l] of Object.entries(r.test_limits ?? {}))
      if (l.time_ms !== undefined && l.time_ms > r.limits.timeout_ms)
        ctx.addIssue({
          code: 'custom',
          path: ['test_limits', sel, 'time_ms'],
          message: `${l.time_ms} ms is above limits.timeout_ms (${r.limits.timeout_ms} ms), the time of the whole job the test runs in`,
        });
  });

export type RubricSpec = z.infer<typeof RubricSchema>;
export type Limits = z.infer<typeof LimitsSchema>;
export type Criteria = z.infer<typeof CriteriaSchema>;
export type AnalysisLimits = z.infer<typeof AnalysisLimitsSchema>;

export interface TestFile {
  /** The file's name as the rubric gives it (reports use this one). */
  readonly name: string;
  readonly source: string;
  readonly sha256: string;
  /** Name and source as the job runs them: a sibling of the entry; TypeScript already type-stripped. */
  readonly jobName: string;
  readonly jobSource: string;
}

/** A rubric as loaded from disk: validated, hashed, frozen. */
export interface Rubric {
  readonly spec: RubricSpec;
  readonly path: string;
  readonly sha256: string;
  readonly tests: readonly TestFile[];
  readonly referenceDir: string | null;
}

/**
 * Does a rubric selector match a test name? Exactly, or as a prefix: a describe path (`convert > edge cases`),
 * or a pytest node id's file, class or function (`leap_test.py::LeapTest`, `test_counts` for `test_counts[3]`).
 */
export const selectorMatches = (selector: string, name: string): boolean =>
  name === selector ||
  name.startsWith(`${selector} > `) ||
  name.startsWith(`${selector}::`) ||
  name.startsWith(`${selector}[`);
