// `evigrade audit`'s output (audit.json): how strong a rubric's hidden tests are, measured by the wrong programs
// (mutants of the reference solution) they accept, the reference lines they never run and the tests that flake.
import { z } from 'zod';

/** Operator classes, the field's (StrykerJS's for JS/TS) plus Python's own; a mutant belongs to one. */
export const OPERATOR_CLASSES = [
  'arithmetic',
  'equality',
  'logical',
  'conditional',
  'boolean',
  'string',
  'numeric',
  'block',
  'update',
  'assignment',
  'unary',
  'array',
  'object',
  'method',
  'optional-chaining',
  'regex',
  'membership',
  'slice',
  'exception',
  'copy',
] as const;
export type OperatorClass = (typeof OPERATOR_CLASSES)[number];

export const MUTANT_STATUSES = ['killed', 'survived', 'timeout', 'error', 'ignored'] as const;
export type MutantStatus = (typeof MUTANT_STATUSES)[number];

export const AuditMutantSchema = z
  .object({
    /** Stable across runs: a hash of file, location, operator and replacement (never an ordinal). */
    id: z.string().regex(/^m-[0-9a-f]{12}$/),
    file: z.string(),
    /** 1-based, as an editor shows it. */
    line: z.number().int().positive(),
    column: z.number().int().positive(),
    endLine: z.number().int().positive(),
    endColumn: z.number().int().positive(),
    operator: z.enum(OPERATOR_CLASSES),
    /** The library's own name for the mutator (StrykerJS's `mutatorName`, or ours for Python). */
    mutator: z.string(),
    original: z.string(),
    replacement: z.string(),
    status: z.enum(MUTANT_STATUSES),
    /** Test names (as reports name them) that did not pass on this mutant. */
    killedBy: z.array(z.string()),
    /** Whether any hidden test executes the mutant's first line on the reference (null: not measured). */
    covered: z.boolean().nullable(),
    /**
     * A survivor whose outputs on every test equal the reference's. The audit does not observe the values the
     * tests compare, so this stays null unless a distinguishing input was found (then false).
     */
    possiblyEquivalent: z.boolean().nullable(),
    /** Why the rubric's `audit.ignore` lists it (status `ignored`). */
    ignoredBecause: z.string().optional(),
    /** What went wrong for status `error` (the first message), or the timeout's test. */
    detail: z.string().optional(),
  })
  .strict();
export type AuditMutant = z.infer<typeof AuditMutantSchema>;

const count = z.number().int().nonnegative();

export const AuditReportSchema = z
  .object({
    schemaVersion: z.literal(1),
    rubric: z.object({ id: z.string(), path: z.string(), sha256: z.string(), language: z.string() }).strict(),
    createdAt: z.string(),
    sandbox: z.string(),
    tools: z.record(z.string(), z.string()),
    /** killed / (killed + survived); null when neither occurred. Timeouts and errors are counted apart. */
    score: z.number().min(0).max(1).nullable(),
    counts: z
      .object({ total: count, killed: count, survived: count, timeout: count, error: count, ignored: count })
      .strict(),
    byOperator: z.array(
      z.object({ operator: z.enum(OPERATOR_CLASSES), total: count, killed: count, survived: count }).strict(),
    ),
    reference: z
      .object({
        runs: count,
        tests: count,
        /** The slowest reference run's job wall time, from which the mutant budgets are derived. */
        wallMs: count,
        budgets: z.object({ timeout_ms: count, test_timeout_ms: count }).strict(),
      })
      .strict(),
    mutants: z.array(AuditMutantSchema),
    /** Reference lines no hidden test executes (executable lines only). */
    uncovered: z.array(z.object({ file: z.string(), line: z.number().int().positive() }).strict()),
    coverage: z
      .object({
        measured: z.boolean(),
        linesTotal: count,
        linesCovered: count,
        /**
         * Per file: the lines no hidden test runs, and the lines tests run whose surviving mutants they still accept
         * (run, but not checked): the two weaknesses are told apart.
         */
        files: z.array(
          z
            .object({
              file: z.string(),
              linesTotal: count,
              linesCovered: count,
              uncovered: z.array(z.number().int().positive()),
              survivedCovered: z.array(z.number().int().positive()),
            })
            .strict(),
        ),
        note: z.string(),
      })
      .strict(),
    /** Tests whose verdict changed between reference runs (k at the rubric's budget, k at a slowed one). */
    flaky: z.array(z.object({ test: z.string(), outcomes: z.array(z.string()) }).strict()),
    distinguishing: z.array(
      z
        .object({
          mutant: z.string(),
          function: z.string(),
          input: z.string(),
          reference: z.string(),
          mutantOutput: z.string(),
          /** A test the instructor could add, in the rubric's language. */
          test: z.string(),
        })
        .strict(),
    ),
    timings: z.object({ totalMs: count, mutantsMs: count, referenceMs: count }).strict(),
    notes: z.array(z.string()),
  })
  .strict();
export type AuditReport = z.infer<typeof AuditReportSchema>;

/** `audit:` in a rubric: mutant ids the instructor has looked at and accepts, each with a reason. */
export const AuditSpecSchema = z
  .object({
    ignore: z
      .array(
        z
          .object({
            id: z.string().regex(/^m-[0-9a-f]{12}$/, 'a mutant id as audit.json gives it (m-…)'),
            reason: z.string().min(1),
          })
          .strict(),
      )
      .default([]),
    /** Reference runs for the flakiness check, at the rubric's budget and again at a slowed one. */
    repeats: z.number().int().min(1).max(50).default(5),
  })
  .strict();
export type AuditSpec = z.infer<typeof AuditSpecSchema>;
