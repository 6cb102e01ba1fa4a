// `evigrade audit`'s order: collect the hidden tests, run the reference k times (and k more on a loaded machine),
// derive the mutants' budgets from its time, then every mutant of the reference through the same sandbox job
// grading uses (pipeline.runHiddenTests), stopping at its first failing test.
import { EvigradeError } from '../domain/errors.js';
import type { AuditReport } from '../domain/audit.js';
import type { Rubric } from '../domain/rubric.js';
import type { Submission, SubmissionFile } from '../domain/submission.js';
import type { Sandbox } from '../adapters/sandbox/registry.js';
import { collectExpected, runHiddenTests, type RunOptions } from '../engine.js';
import type { AttemptState } from '../stages/run/attempts.js';
import type { ExpectedTest } from '../domain/queue.js';
import { testName } from '../stages/score/report.js';
import { createLimiter } from '../util/limiter.js';
import { sha256 } from '../util/hash.js';
import { flakyTests, mutantLimits, referenceFailures, slowestTest, verdictOf, type Verdict } from './classify.js';
import { jsMutants } from './js-mutants.js';
import { pyMutants } from './py-mutants.js';
import { applyMutant, type MutantSite } from './sites.js';
import { withCpuLoad } from './load.js';
import { buildAuditReport, type Coverage } from './report.js';
import { measureCoverage } from './coverage.js';
import { distinguishSurvivors } from './distinguish.js';

export interface AuditProgress {
  readonly phase: 'collect' | 'reference' | 'mutants' | 'distinguish' | 'done';
  readonly done: number;
  readonly total: number;
  readonly mutant?: { readonly id: string; readonly status: string };
}

export interface AuditPorts {
  readonly sandbox: Sandbox;
  readonly concurrency: number;
  readonly now: () => Date;
  readonly tools: Record<string, string>;
  readonly onProgress?: (p: AuditProgress) => void;
}

export interface AuditOutcome {
  readonly report: AuditReport;
  /** The reference's files by path, for the HTML page and the standard report. */
  readonly sources: Readonly<Record<string, string>>;
  /** The hidden tests by file and name (the standard report lists them). */
  readonly tests: readonly { readonly file: string; readonly name: string }[];
}

const JS_FILE = /\.(?:[cm]?js|tsx?|[cm]ts)$/;

/** The mutants of every source file of the reference in the rubric's language. */
export async function mutantsOf(rubric: Rubric, ref: Submission): Promise<MutantSite[]> {
  const python = rubric.spec.language === 'python';
  const out: MutantSite[] = [];
  for (const f of ref.files) {
    if (python ? f.path.endsWith('.py') : JS_FILE.test(f.path) && !f.path.endsWith('.d.ts'))
      out.push(...(python ? await pyMutants(f.path, f.content) : await jsMutants(f.path, f.content)));
  }
  return out;
}

const withFile = (sub: Submission, path: string, content: string): Submission => {
  const files: SubmissionFile[] = sub.files.map((f) =>
    f.path === path ? { path, content, sha256: sha256(content), bytes: Buffer.byteLength(content) } : f,
  );
  return { ...sub, files, sha256: sha256(files.map((f) => f.sha256).join('|')) };
};

interface Timed {
  readonly state: AttemptState;
  readonly wallMs: number;
}

async function timedRun(
  sub: Submission,
  rubric: Rubric,
  expected: readonly ExpectedTest[],
  sandbox: Sandbox,
  opts: RunOptions = {},
): Promise<Timed> {
  const t0 = performance.now();
  // A mutant's run ends at its first failure: a test that takes the job down decides it, so no resumption.
  const state = await runHiddenTests(
    sub,
    rubric,
    expected,
    { sandbox, maxResumes: opts.stopAtFirstFailure ? 0 : 2 },
    opts,
  );
  return { state, wallMs: Math.round(performance.now() - t0) };
}

/** k runs one after another, then k at once on a machine kept busy on every core: a verdict that changes is flaky. */
async function referenceRuns(
  rubric: Rubric,
  ref: Submission,
  expected: readonly ExpectedTest[],
  ports: AuditPorts,
): Promise<Timed[]> {
  const k = rubric.spec.audit?.repeats ?? 5;
  const runs: Timed[] = [];
  for (let i = 0; i < k; i++) {
    runs.push(await timedRun(ref, rubric, expected, ports.sandbox));
    ports.onProgress?.({ phase: 'reference', done: runs.length, total: 2 * k });
    const bad = i === 0 ? referenceFailures(runs[0]!.state, expected) : [];
    if (bad.length > 0)
      throw new EvigradeError(
        'REFERENCE_FAILED',
        `${rubric.path}: the reference solution fails ${bad.length} of ${expected.length} tests (${bad.slice(0, 5).join('; ')}); an audit needs a reference that passes`,
      );
  }
  const slowed = await withCpuLoad(() =>
    Promise.all(Array.from({ length: k }, () => timedRun(ref, rubric, expected, ports.sandbox))),
  );
  ports.onProgress?.({ phase: 'reference', done: 2 * k, total: 2 * k });
  return [...runs, ...slowed];
}

export async function auditRubric(rubric: Rubric, ref: Submission, ports: AuditPorts): Promise<AuditOutcome> {
  const t0 = performance.now();
  ports.onProgress?.({ phase: 'collect', done: 0, total: 1 });
  const expected = await collectExpected(rubric, ports.sandbox);
  const refs = await referenceRuns(rubric, ref, expected, ports);
  const k = refs.length / 2;
  // Budgets from the unloaded runs: the loaded ones are there to find flaky tests, not to set limits.
  // The quickest unloaded run: the least disturbed by other work on the machine (the job clock then counts own time).
  const limits = mutantLimits(
    rubric.spec.limits,
    Math.min(...refs.slice(0, k).map((r) => r.wallMs)),
    slowestTest(refs.slice(0, k).map((r) => r.state)),
  );
  const coverage: Coverage = await measureCoverage(rubric, ref, expected, ports.sandbox);
  const referenceMs = Math.round(performance.now() - t0);
  const sites = await mutantsOf(rubric, ref);
  const ignore = new Map((rubric.spec.audit?.ignore ?? []).map((i) => [i.id, i.reason]));
  const limiter = createLimiter(Math.max(1, ports.concurrency), 0);
  const t1 = performance.now();
  let done = 0;
  const mutated = (m: MutantSite): Submission =>
    withFile(ref, m.file, applyMutant(ref.files.find((f) => f.path === m.file)?.content ?? '', m));
  const verdicts = await Promise.all(
    sites.map((m) =>
      ignore.has(m.id)
        ? Promise.resolve<Verdict | null>(null)
        : limiter.run(async () => {
            const run = await timedRun(mutated(m), rubric, expected, ports.sandbox, {
              limits,
              stopAtFirstFailure: true,
            });
            const v = verdictOf(run.state, expected);
            ports.onProgress?.({
              phase: 'mutants',
              done: ++done,
              total: sites.length - ignore.size,
              mutant: { id: m.id, status: v.status },
            });
            return v;
          }),
    ),
  );
  const survivors = sites.filter((_m, i) => verdicts[i]?.status === 'survived');
  const searched = await distinguishSurvivors(rubric, ref, survivors, {
    sandbox: ports.sandbox,
    limiter,
    mutated,
    limits,
    ...(ports.onProgress ? { onProgress: ports.onProgress } : {}),
  });
  const report = buildAuditReport({
    rubric,
    sandbox: ports.sandbox.backend.id,
    tools: ports.tools,
    now: ports.now(),
    expected,
    sites,
    verdicts,
    ignore,
    coverage,
    searched,
    flaky: flakyTests(
      refs.map((r) => r.state),
      expected,
    ),
    reference: {
      runs: refs.length,
      tests: expected.length,
      wallMs: Math.max(...refs.slice(0, k).map((r) => r.wallMs)),
      budgets: { timeout_ms: limits.timeout_ms, test_timeout_ms: limits.test_timeout_ms },
    },
    timings: {
      totalMs: Math.round(performance.now() - t0),
      mutantsMs: Math.round(performance.now() - t1),
      referenceMs,
    },
  });
  ports.onProgress?.({ phase: 'done', done: sites.length, total: sites.length });
  return {
    report,
    sources: Object.fromEntries(ref.files.map((f) => [f.path, f.content])),
    tests: expected.map((t) => ({ file: t.file, name: testName(t) })),
  };
}
