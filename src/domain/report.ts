import { z } from 'zod';
import { CRITERIA } from './criteria.js';
import { ErrorCodeSchema } from './errors.js';
import { ItemsScoreSchema } from './items.js';
import { JudgeReportSchema } from './judge.js';
import { LmsIdentitySchema } from './lms.js';
import { UNMEASURABLE } from './analysis.js';
import { QUALITY_POLICIES } from './rubric.js';
import { StudentPolicySchema, TestPolicySchema } from './visibility.js';

export const TEST_STATUSES = ['passed', 'failed', 'error', 'timeout', 'skipped'] as const;
export const TestStatusSchema = z.enum(TEST_STATUSES);
export type TestStatus = z.infer<typeof TestStatusSchema>;

/** A test's prints, per stream, as the harness kept them (at most 4096 characters in all; `truncated` when cut). */
export const TestOutputSchema = z
  .object({ stdout: z.string().max(4096), stderr: z.string().max(4096), truncated: z.boolean() })
  .strict();

export const TestResultSchema = z
  .object({
    id: z.string().regex(/^T\d+$/),
    name: z.string(),
    path: z.array(z.string()),
    file: z.string(),
    status: TestStatusSchema,
    durationMs: z.number().nonnegative(),
    message: z.string(),
    weight: z.number().positive(),
    edgeCase: z.boolean(),
    /** What students see of this test, from the rubric (absent in reports older than the field: hidden). */
    student: TestPolicySchema.optional(),
    /** What the test printed while it ran (its own prints and the submission's), bounded; absent when nothing. */
    output: TestOutputSchema.optional(),
  })
  .strict();
export type TestResult = z.infer<typeof TestResultSchema>;

export const SANDBOX_EVENTS = [
  'timeout',
  'memory_limit',
  'output_limit',
  'pids_limit',
  'crash',
  'incomplete',
  'tampering',
  'process_exit',
  'blocked_module',
  'resumed',
  // what the submission's code tried at run time (a file outside its folder, the environment, a process, a
  // signal to another process, the network, native code), seen as it happened; its flag is one of ATTEMPT_FLAGS
  'attempt',
  'load_error',
] as const;
/** Flags for what a submission attempted at run time (sandbox/python/attempts.py; the JavaScript realm's facades). */
export const ATTEMPT_FLAGS = [
  'sandbox.attempt.read_outside',
  'sandbox.attempt.env',
  'sandbox.attempt.spawn',
  'sandbox.attempt.signal',
  'sandbox.attempt.network',
  // native code (Python's ctypes): what it then does is past every hook, so the way in is the attempt
  'sandbox.attempt.native',
] as const;
export type AttemptFlag = (typeof ATTEMPT_FLAGS)[number];
export const SandboxEventSchema = z
  .object({ id: z.string().regex(/^S\d+$/), event: z.enum(SANDBOX_EVENTS), detail: z.string() })
  .strict();
export type SandboxEvent = z.infer<typeof SandboxEventSchema>;

const position = { file: z.string(), line: z.number().int().positive(), column: z.number().int().positive() };
export const LintItemSchema = z
  .object({
    id: z.string().regex(/^L\d+$/),
    kind: z.literal('lint'),
    rule: z.string(),
    severity: z.enum(['error', 'warning']),
    ...position,
    message: z.string(),
    weight: z.number().nonnegative(),
  })
  .strict();
export const FunctionItemSchema = z
  .object({
    id: z.string().regex(/^C\d+$/),
    kind: z.literal('complexity'),
    rule: z.literal('function'),
    file: z.string(),
    name: z.string(),
    line: z.number().int().positive(),
    endLine: z.number().int().positive(),
    cyclomatic: z.number().int().positive(),
    maxLoopNesting: z.number().int().nonnegative(),
    recursive: z.boolean(),
    lines: z.number().int().positive(),
    params: z.number().int().nonnegative(),
    overLimit: z.boolean(),
  })
  .strict();
/** One per analysed file: what the style and complexity scores are computed from. */
export const FileItemSchema = z
  .object({
    id: z.string().regex(/^C\d+$/),
    kind: z.literal('complexity'),
    rule: z.literal('file'),
    file: z.string(),
    loc: z.number().int().nonnegative(),
    measured: z.boolean(),
    metrics: z.boolean(),
    maxLoopNesting: z.number().int().nonnegative(),
    maxCyclomatic: z.number().int().positive(),
    /** Why the submission made this file unmeasurable (absent in reports older than the field). */
    blocked: z.enum(UNMEASURABLE).nullable().optional(),
  })
  .strict();
export const PolicyItemSchema = z
  .object({
    id: z.string().regex(/^C\d+$/),
    kind: z.literal('complexity'),
    rule: z.string().regex(/^policy\.[a-z_]+$/),
    ...position,
    message: z.string(),
  })
  .strict();
export const EvidenceItemSchema = z.union([
  z
    .object({
      id: z.string().regex(/^T\d+$/),
      kind: z.literal('test'),
      name: z.string(),
      status: TestStatusSchema,
      weight: z.number(),
      edgeCase: z.boolean(),
      message: z.string(),
    })
    .strict(),
  z
    .object({
      id: z.string().regex(/^S\d+$/),
      kind: z.literal('sandbox'),
      event: z.enum(SANDBOX_EVENTS),
      detail: z.string(),
    })
    .strict(),
  LintItemSchema,
  FileItemSchema,
  FunctionItemSchema,
  PolicyItemSchema,
]);
export type LintItem = z.infer<typeof LintItemSchema>;
export type FileItem = z.infer<typeof FileItemSchema>;
export type ComplexityItem = FileItem | z.infer<typeof FunctionItemSchema> | z.infer<typeof PolicyItemSchema>;
export type EvidenceItem = z.infer<typeof EvidenceItemSchema>;

export const FlagSchema = z
  .object({
    code: z.string().regex(/^[a-z_]+(\.[a-z_]+)*$/),
    severity: z.enum(['info', 'warning', 'critical']),
    message: z.string(),
    evidence: z.array(z.string()),
    /** For judge flags: the judge's claim the evidence contradicts. */
    claim: z.string().nullable().optional(),
  })
  .strict();
export type Flag = z.infer<typeof FlagSchema>;

const score = z.number().min(0).max(10).nullable();
export const DeterministicScoresSchema = z
  .object({ correctness: score, edge_cases: score, style: score, complexity: score, total: z.number().min(0).max(10) })
  .strict();
export type DeterministicScores = z.infer<typeof DeterministicScoresSchema>;

const measuredPair = z.object({ style: score, complexity: score }).strict();
/** How the rubric's quality policy turned measured style and complexity into credited ones. */
export const QualityCreditSchema = z
  .object({
    policy: z.enum(QUALITY_POLICIES),
    factor: z.number().min(0).max(1),
    measured: measuredPair,
    credited: measuredPair,
    reason: z.string(),
  })
  .strict();
export type QualityCredit = z.infer<typeof QualityCreditSchema>;

/** A criterion that carries no measured score, and why: never silent. */
export const UnmeasuredSchema = z.object({ criterion: z.enum(CRITERIA), reason: z.string() }).strict();
export type Unmeasured = z.infer<typeof UnmeasuredSchema>;

export const LlmScoresSchema = z
  .object({ correctness: score, edge_cases: score, style: score, complexity: score, total: z.number().min(0).max(10) })
  .strict();
export const BlendSchema = z
  .object({
    weights: z.object({ deterministic: z.number(), llm: z.number() }).strict(),
    /** Whether the LLM's scores entered the final score; the reason says why or why not. */
    applied: z.boolean(),
    reason: z.string(),
    perCriterion: z.object({ correctness: score, edge_cases: score, style: score, complexity: score }).strict(),
  })
  .strict();

export const ReportSchema = z
  .object({
    schemaVersion: z.literal(1),
    status: z.enum(['graded', 'rejected', 'error']),
    submission: z
      .object({
        id: z.string(),
        /** The submission's own name when it differs from the id (o'brien, José Núñez); absent in older reports. */
        name: z.string().optional(),
        sha256: z.string(),
        files: z.array(
          z
            .object({
              path: z.string(),
              sha256: z.string(),
              bytes: z.number().int().nonnegative(),
              /** The text that was graded (UTF-8; intake refuses binary files), so the report is its own audit record; absent in older reports. */
              text: z.string().optional(),
            })
            .strict(),
        ),
        ignored: z.array(z.string()),
        /** Set when the submission came from an LMS download (`grade --from`): who it belongs to there. */
        lms: LmsIdentitySchema.optional(),
      })
      .strict(),
    rubric: z
      .object({
        id: z.string(),
        title: z.string(),
        sha256: z.string(),
        /** What the scores were computed with, so `verify` can recompute them from the report alone. */
        criteria: z
          .object({ correctness: z.number(), edge_cases: z.number(), style: z.number(), complexity: z.number() })
          .strict(),
        complexity: z.object({ max_loop_nesting: z.number(), max_cyclomatic: z.number() }).strict(),
        /** The rubric's analysis limits and policy (absent in reports older than the field: files left out). */
        analysis: z
          .object({ max_code_kb: z.number(), cpu_ms: z.number(), unmeasurable: z.enum(['zero', 'exclude']) })
          .strict()
          .optional(),
        /** The rubric's quality policy (absent in reports older than the field: independent). */
        quality: z.enum(QUALITY_POLICIES).optional(),
        maxAdjustment: z.number(),
        /** The rubric's student policy (absent in reports older than the field: the defaults). */
        student: StudentPolicySchema.optional(),
      })
      .strict(),
    sandbox: z
      .object({
        backend: z.string(),
        limits: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
        runs: z.number().int().nonnegative(),
        violations: z.array(SandboxEventSchema),
      })
      .strict(),
    tests: z.array(TestResultSchema),
    evidence: z
      .object({ hash: z.string().regex(/^sha256:[0-9a-f]{64}$/), items: z.array(EvidenceItemSchema) })
      .strict(),
    scores: z
      .object({
        deterministic: DeterministicScoresSchema,
        /** The judge's scores over the measured criteria, whether or not the blend used them. */
        llm: LlmScoresSchema.nullable(),
        final: z.number().min(0).max(10),
        blend: BlendSchema,
        basis: z.string(),
        /** Criteria without a measured score and why (absent in reports older than the field). */
        unmeasured: z.array(UnmeasuredSchema).optional(),
        /** The quality policy that applied (absent in reports older than the field: independent). */
        quality: QualityCreditSchema.optional(),
        /** The rubric's items, decided and scored (absent when the rubric has none). */
        items: ItemsScoreSchema.optional(),
      })
      .strict(),
    flags: z.array(FlagSchema),
    judge: JudgeReportSchema,
    timings: z.record(z.string(), z.number().nonnegative()),
    errors: z.array(z.object({ code: ErrorCodeSchema, message: z.string() }).strict()),
    tools: z.record(z.string(), z.string()),
    generatedAt: z.string(),
  })
  .strict();
export type Report = z.infer<typeof ReportSchema>;

/**
 * What the deterministic stages produce (tests, lint, metrics, scores, evidence, flags): a report before the
 * judge, with no judge field to fill in. It is what a queue worker sends back; `finalize`
 * (stages/judge/judgement.ts) turns it into the Report, once.
 */
export const DeterministicReportSchema = ReportSchema.omit({ judge: true, scores: true })
  .extend({
    scores: z
      .object({
        deterministic: DeterministicScoresSchema,
        unmeasured: z.array(UnmeasuredSchema),
        quality: QualityCreditSchema.optional(),
      })
      .strict(),
  })
  .strict();
export type DeterministicReport = z.infer<typeof DeterministicReportSchema>;

export const SummarySchema = z
  .object({
    schemaVersion: z.literal(1),
    rubric: z.object({ id: z.string(), sha256: z.string() }).strict(),
    count: z.number().int(),
    graded: z.number().int(),
    rejected: z.number().int(),
    errored: z.number().int(),
    meanFinal: z.number(),
    flagged: z.array(z.string()),
    submissions: z.array(
      z
        .object({
          id: z.string(),
          /** The submission's own name when it differs from the id. */
          name: z.string().optional(),
          status: z.string(),
          final: z.number(),
          total: z.number(),
          flags: z.array(z.string()),
          passed: z.number().int(),
          tests: z.number().int(),
          /** "criterion: reason" for each criterion without a measured score. */
          unmeasured: z.array(z.string()).optional(),
        })
        .strict(),
    ),
    sandbox: z.string(),
    judge: z
      .object({
        answered: z.number().int(),
        cached: z.number().int(),
        failed: z.number().int(),
        skipped: z.number().int(),
        blended: z.number().int(),
        calls: z.number().int(),
        promptTokens: z.number().int(),
        completionTokens: z.number().int(),
        costUsd: z.number(),
      })
      .strict(),
    generatedAt: z.string(),
  })
  .strict();
export type Summary = z.infer<typeof SummarySchema>;
