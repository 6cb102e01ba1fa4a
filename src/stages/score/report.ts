import { runSpecificCanon } from './run-specific.js';
import type { EvigradeError } from '../../domain/errors.js';
import type { DeterministicReport, Flag, SandboxEvent, TestResult } from '../../domain/report.js';
import type { Rubric } from '../../domain/rubric.js';
import { selectorMatches } from '../../domain/rubric.js';
import type { Submission } from '../../domain/submission.js';
import type { ExpectedTest } from '../../domain/queue.js';
import type { Observed } from '../run/test-run.js';
import type { FileAnalysis } from '../../domain/analysis.js';
import { analysisEvidence, policyFlags } from '../analysis/analysis-evidence.js';
import { complexityFromEvidence, DEFAULT_COMPLEXITY_LIMITS, styleFromEvidence } from '../analysis/analysis-scores.js';
import { buildEvidence } from './evidence.js';
import { creditQuality } from './quality.js';
import { deterministicScores } from './scores.js';
import { unmeasuredCriteria } from './unmeasured.js';
import { testPolicy } from './visibility.js';

export const testName = (t: ExpectedTest): string => t.path.join(' > ');

export function weightOf(rubric: Rubric, name: string): number {
  let w = 1;
  for (const [sel, v] of Object.entries(rubric.spec.weights)) if (selectorMatches(sel, name)) w = v;
  return w;
}
export const isEdgeCase = (rubric: Rubric, name: string): boolean =>
  rubric.spec.edge_cases.some((sel) => selectorMatches(sel, name));

export function toTestResults(
  rubric: Rubric,
  expected: readonly ExpectedTest[],
  observed: readonly Observed[],
): TestResult[] {
  const fileName = new Map(rubric.tests.map((f) => [f.jobName, f.name]));
  return expected.map((t, i) => {
    const o = observed[i] as Observed;
    const name = testName(t);
    const file = fileName.get(t.file) ?? t.file;
    return {
      id: `T${i + 1}`,
      name,
      path: [...t.path],
      file,
      status: o.status,
      durationMs: o.durationMs,
      message: o.message,
      weight: weightOf(rubric, name),
      edgeCase: isEdgeCase(rubric, name),
      student: testPolicy(rubric.spec, name, file),
      ...(o.output && (o.output.stdout || o.output.stderr) ? { output: o.output } : {}),
    };
  });
}

const FLAG_EVENTS: Record<string, SandboxEvent['event'][]> = {
  'sandbox.process_exit': ['process_exit'],
  'sandbox.early_exit': ['incomplete'],
  'submission.load_error': ['load_error'],
};
/** Each flag cites the events that show it: its own tampering events, or its kind of sandbox event. */
function attachEvidence(flags: readonly Omit<Flag, 'evidence'>[], events: readonly SandboxEvent[]): Flag[] {
  return flags.map((f) => {
    const own = (e: SandboxEvent): boolean =>
      // Tampering events carry their flag's code as the prefix of their detail; other flags map to event kinds.
      f.code.startsWith('tampering.')
        ? e.event === 'tampering' && e.detail.startsWith(`${f.code}:`)
        : f.code.startsWith('sandbox.attempt.')
          ? e.event === 'attempt' && e.detail.startsWith(`${f.code}:`)
          : (FLAG_EVENTS[f.code] ?? []).includes(e.event);
    return { ...f, evidence: events.filter(own).map((e) => e.id) };
  });
}

/** Test messages, event details and flag messages with nothing a run alone decides (stages/score/run-specific.ts). */
function withoutRunSpecifics(input: ReportInput): ReportInput {
  const canon = runSpecificCanon();
  return {
    ...input,
    tests: input.tests.map((t) => ({ ...t, message: canon(t.message) })),
    events: input.events.map((e) => ({ ...e, detail: canon(e.detail) })),
    flags: input.flags.map((f) => ({ ...f, message: canon(f.message) })),
  };
}

export interface ReportInput {
  readonly status: DeterministicReport['status'];
  readonly submission: Submission;
  readonly rubric: Rubric;
  readonly backend: string;
  readonly runs: number;
  readonly tests: readonly TestResult[];
  readonly events: readonly Omit<SandboxEvent, 'id'>[];
  readonly flags: readonly Omit<Flag, 'evidence'>[];
  readonly errors: readonly EvigradeError[];
  /** Lint and AST metrics per file; empty when the submission was not analysed. */
  readonly analyses: readonly FileAnalysis[];
  readonly timings: Record<string, number>;
  readonly tools: Record<string, string>;
  readonly now: Date;
}

/** Assembles what the deterministic stages measured; `finalize` (judgement.ts) adds the judge. Pure: same input, same report. */
export function assembleReport(raw: ReportInput): DeterministicReport {
  const input = withoutRunSpecifics(raw);
  const { rubric } = input;
  const violations: SandboxEvent[] = input.events.map((e, i) => ({ id: `S${i + 1}`, ...e }));
  const limitsC = rubric.spec.complexity ?? DEFAULT_COMPLEXITY_LIMITS;
  const evidenceA = analysisEvidence(input.analyses, limitsC);
  const measuredItems = [...evidenceA.lint, ...evidenceA.complexity];
  const policy = rubric.spec.analysis.unmeasurable;
  const measured = {
    style: styleFromEvidence(measuredItems, policy),
    complexity: complexityFromEvidence(measuredItems, limitsC, policy),
  };
  const quality = creditQuality(measured, input.tests, rubric.spec.quality);
  const det = deterministicScores(input.tests, rubric.spec.criteria, quality.credited);
  const graded = input.status === 'graded';
  const unmeasured = graded
    ? unmeasuredCriteria(det, rubric.spec.criteria, input.tests, measuredItems, policy)
    : { unmeasured: [], flag: null };
  const limits: Record<string, number | string | boolean> = { ...rubric.spec.limits };
  return {
    schemaVersion: 1,
    status: input.status,
    submission: {
      id: input.submission.id,
      ...(input.submission.name !== undefined &&
        input.submission.name !== input.submission.id && { name: input.submission.name }),
      sha256: input.submission.sha256,
      files: input.submission.files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.bytes, text: f.content })),
      ignored: [...input.submission.ignored],
    },
    rubric: {
      id: rubric.spec.id,
      title: rubric.spec.title,
      sha256: rubric.sha256,
      criteria: { ...rubric.spec.criteria },
      complexity: { ...limitsC },
      analysis: { ...rubric.spec.analysis },
      quality: rubric.spec.quality,
      maxAdjustment: rubric.spec.blend.max_adjustment,
      student: { ...rubric.spec.student },
    },
    sandbox: { backend: input.backend, limits, runs: input.runs, violations },
    tests: [...input.tests],
    evidence: buildEvidence(input.tests, violations, evidenceA.lint, evidenceA.complexity),
    scores: { deterministic: det, unmeasured: unmeasured.unmeasured, quality },
    flags: [
      ...attachEvidence(input.flags, violations),
      ...policyFlags(evidenceA.complexity),
      ...(unmeasured.flag ? [unmeasured.flag] : []),
    ],
    timings: input.timings,
    errors: input.errors.map((e) => ({ code: e.code, message: e.message })),
    tools: input.tools,
    generatedAt: input.now.toISOString(),
  };
}
