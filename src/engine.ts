// The deterministic grading of one submission, and the only place that knows its stage order:
// collect (once per rubric) → sandboxed runs (resumed after a kill) → interpretation → lint and metrics →
// scores → evidence → the deterministic report. It runs wherever the queue runs it (this process, or a worker):
// it never sees the queue, the judge or the history (pipeline.ts, above the queue, does).
import { LANGUAGES } from './domain/languages.js';
import type { AnalysisPort } from './adapters/analysis/pool.js';
import type { Sandbox } from './adapters/sandbox/registry.js';
import { SANDBOX_ROOT } from './adapters/sandbox/rootfs.js';
import { parseFrame } from './domain/frames.js';
import type { HarnessPayload, RawRun, SandboxJob } from './domain/sandbox.js';
import { EvigradeError } from './domain/errors.js';
import type { DeterministicReport } from './domain/report.js';
import { selectorMatches, totalTimeoutMs, type Limits, type Rubric } from './domain/rubric.js';
import type { Submission } from './domain/submission.js';
import { foldAttempt, newAttemptState, onlyMap, settle, type AttemptState } from './stages/run/attempts.js';
import { assembleReport, testName, toTestResults } from './stages/score/report.js';
import { unknownStudentSelectors } from './stages/score/visibility.js';
import type { ExpectedTest } from './domain/queue.js';
import { interpretRun, type FrameOf } from './stages/run/test-run.js';
import { importedNames } from './stages/run/imports.js';
import { jobTest } from './stages/run/test-rewrite.js';
import {
  limitGroups,
  payloadTimeouts,
  testLimitsOf,
  unknownLimitSelectors,
  type LimitGroup,
} from './stages/run/test-limits.js';
import { isTsFile, jsName, sourceLines, transpileForJob } from './stages/run/typescript.js';

/** What the deterministic part needs: it runs where the queue runs it (this process, or a worker). */
export interface GradePorts {
  readonly sandbox: Sandbox;
  readonly analysis: AnalysisPort;
  readonly now: () => Date;
  readonly tools: Record<string, string>;
  /** Extra runs after a test takes the job down (each gets the full time limit). */
  readonly maxResumes: number;
}

export const ms = (since: number): number => Math.round(performance.now() - since);

/** How a run of the hidden tests differs from grading's: a rubric audit's budgets and early stop (src/audit/). */
export interface RunOptions {
  readonly limits?: Limits;
  readonly stopAtFirstFailure?: boolean;
  /** The rubric's own time limit per test (`test_limits`), by job file and index. */
  readonly testTimeouts?: HarnessPayload['testTimeouts'];
  /** The reference's coverage run (audit/coverage.ts): never set for a submission. */
  readonly coverage?: boolean;
}

function payload(
  rubric: Rubric,
  mode: HarnessPayload['mode'],
  only: HarnessPayload['only'],
  opts: RunOptions = {},
): HarnessPayload {
  const limits = opts.limits ?? rubric.spec.limits;
  const python = LANGUAGES[rubric.spec.language].runtime === 'python';
  return {
    mode,
    root: SANDBOX_ROOT,
    entry: mode === 'run' && !python ? jsName(rubric.spec.entry) : null,
    tests: rubric.tests.map((t) => jobTest(t, !python)),
    only,
    stubNames: python ? [] : importedNames(rubric.tests.map((t) => t.jobSource)),
    testTimeoutMs: limits.test_timeout_ms,
    outputBytes: limits.output_kb * 1024,
    builtins: rubric.spec.builtins ?? [],
    // The submission's process gets the job's memory less what the test process itself needs.
    ...(python ? { memoryBytes: Math.max(64, limits.memory_mb - 48) * 1024 * 1024 } : {}),
    ...(opts.stopAtFirstFailure ? { stopAtFirstFailure: true } : {}),
    ...(opts.testTimeouts ? { testTimeouts: opts.testTimeouts } : {}),
    ...(opts.coverage ? { coverage: true } : {}),
  };
}

/** The job for a rubric's hidden tests: its runtime, payload and limits. */
const jobOf = (
  rubric: Rubric,
  files: Submission['files'],
  mode: HarnessPayload['mode'],
  only: HarnessPayload['only'],
  limits = rubric.spec.limits,
  opts: RunOptions = {},
): SandboxJob => ({
  runtime: LANGUAGES[rubric.spec.language].runtime,
  files,
  payload: payload(rubric, mode, only, opts),
  limits,
});

/**
 * Learns the tests that must report, from the hidden tests alone (the
 * submission is replaced by a stub), so nothing a submission does can change
 * the expected set.
 */
export async function collectExpected(rubric: Rubric, sandbox: Sandbox): Promise<ExpectedTest[]> {
  const limits = { ...rubric.spec.limits, timeout_ms: Math.max(rubric.spec.limits.timeout_ms, 30_000) };
  const run = await sandbox.run(jobOf(rubric, [], 'collect', null, limits));
  const expected: ExpectedTest[] = [];
  const problems: string[] = [];
  for (const raw of run.frames) {
    if (raw.type !== 'collected') continue;
    const f = parseFrame(raw);
    if ('malformed' in f) {
      problems.push(`the harness sent ${f.malformed}`);
      continue;
    }
    if (f.type !== 'collected') continue;
    const d = f.data;
    if (d.error) problems.push(`${d.file}: cannot be loaded: ${d.error.split('\n')[0]}`);
    for (const t of d.tests) expected.push({ file: d.file, index: t.index, path: t.path });
  }
  if (!run.frames.some((f) => f.type === 'done')) {
    problems.push(
      `collecting the tests did not finish (exit ${run.exitCode ?? run.signal}): ${run.stderr.slice(0, 500)}`,
    );
  }
  if (problems.length === 0 && expected.length === 0) problems.push('the test files register no tests');
  problems.push(...unknownLimitSelectors(rubric, expected));
  const names = expected.map(testName);
  for (const sel of [...Object.keys(rubric.spec.weights), ...rubric.spec.edge_cases]) {
    if (!names.some((n) => selectorMatches(sel, n)))
      problems.push(`"${sel}" (in weights or edge_cases) matches no test`);
  }
  const fileName = new Map(rubric.tests.map((f) => [f.jobName, f.name]));
  problems.push(
    ...unknownStudentSelectors(
      rubric,
      expected.map((t, i) => ({ name: names[i] as string, file: fileName.get(t.file) ?? t.file })),
    ),
  );
  if (problems.length > 0) throw new EvigradeError('RUBRIC_TESTS_INVALID', `${rubric.path}: ${problems.join('; ')}`);
  return expected;
}

/** The files the job gets: TypeScript type-stripped, and nothing named like a hidden test. */
function jobFiles(
  sub: Submission,
  rubric: Rubric,
): {
  files: Submission['files'];
  shadowed: string[];
  sourceOf: (jobPath: string) => string;
  /** A type-stripped file's source map (v3 JSON), by its job path. */
  maps: ReadonlyMap<string, string>;
} {
  const hidden = new Set(rubric.tests.flatMap((t) => [t.name, t.jobName]));
  const maps = new Map<string, string>();
  const runnable = sub.files.map((f) => {
    if (rubric.spec.language !== 'typescript' || !isTsFile(f.path)) return f;
    const out = transpileForJob(f.path, f.content);
    maps.set(out.path, out.sourceMap);
    return { ...f, path: out.path, content: out.code, bytes: Buffer.byteLength(out.code) };
  });
  // A job file's name as the submission has it (TypeScript runs type-stripped under a .js name).
  const original = new Map(runnable.map((f, i) => [f.path, sub.files[i]?.path ?? f.path]));
  return {
    files: runnable.filter((f) => !hidden.has(f.path)),
    shadowed: runnable.filter((f) => hidden.has(f.path)).map((f) => f.path),
    sourceOf: (p) => original.get(p) ?? p,
    maps,
  };
}
/** Everything measured: tests in the sandbox, lint and metrics, scores and evidence. */
export async function gradeDeterministic(
  sub: Submission,
  rubric: Rubric,
  expected: readonly ExpectedTest[],
  ports: GradePorts,
): Promise<DeterministicReport> {
  const t0 = performance.now();
  const state = newAttemptState();
  const { files, shadowed, sourceOf } = jobFiles(sub, rubric);
  if (shadowed.length > 0) {
    state.flags.push({
      code: 'intake.shadowed_test_file',
      severity: 'info',
      message: `submitted file(s) ${shadowed.join(', ')} share a hidden test's name and were replaced by it`,
    });
  }
  // Lint and metrics run in the worker pool while the sandbox runs the tests.
  const analysing = timed(() =>
    ports.analysis.analyse(sub.files, {
      lint: rubric.spec.lint,
      language: rubric.spec.language,
      limits: rubric.spec.analysis,
    }),
  );
  // A grader failure of the analysis (ANALYSIS_FAILED) surfaces at the await below, not as an unhandled rejection meanwhile.
  analysing.catch(() => undefined);
  const testRunMs = (await timed(() => runTests(files, rubric, expected, state, ports, sourceOf))).ms;
  const analysis = await analysing;
  const tests = toTestResults(rubric, expected, settle(state, expected));
  return assembleReport({
    status: 'graded',
    submission: { ...sub },
    rubric,
    backend: ports.sandbox.backend.id,
    runs: state.runs,
    tests,
    events: state.events,
    flags: state.flags,
    errors: [],
    analyses: analysis.value,
    timings: { testRunMs, analysisMs: analysis.ms, totalMs: ms(t0) },
    tools: ports.tools,
    now: ports.now(),
  });
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: ms(t0) };
}

/**
 * Runs the job, and re-runs it for the tests a kill left without a result: once per memory limit the rubric gives
 * tests (`test_limits`), each group in jobs of its own with that limit.
 */
async function runTests(
  files: Submission['files'],
  rubric: Rubric,
  expected: readonly ExpectedTest[],
  state: AttemptState,
  ports: Pick<GradePorts, 'sandbox' | 'maxResumes'>,
  sourceOf: (jobPath: string) => string,
  opts: RunOptions = {},
): Promise<void> {
  const own = testLimitsOf(rubric, expected);
  const testTimeouts = payloadTimeouts(expected, own);
  const groups = limitGroups(expected, own, opts.limits ?? rubric.spec.limits);
  const job = { files, rubric, expected, sourceOf, opts: { ...opts, ...(testTimeouts ? { testTimeouts } : {}) } };
  for (const g of groups) await runGroup(job, g, groups.length === 1 ? null : onlyMap(g.tests), state, ports);
}

/**
 * One group's jobs: a job killed while a test ran has that test charged and the rest resumed in a fresh job. A test
 * the grader stopped at its own limit always lets the rest resume, while the submission's budget for such tests
 * (`limits.total_timeout_ms`, each counted at its limit) lasts; any other kill, at most `maxResumes` times.
 */
async function runGroup(
  job: {
    files: Submission['files'];
    rubric: Rubric;
    expected: readonly ExpectedTest[];
    sourceOf: (p: string) => string;
    opts: RunOptions;
  },
  group: LimitGroup,
  first: HarnessPayload['only'],
  state: AttemptState,
  ports: Pick<GradePorts, 'sandbox' | 'maxResumes'>,
): Promise<void> {
  let only = first;
  let kills = 0;
  for (;;) {
    const run: RawRun = await ports.sandbox.run(jobOf(job.rubric, job.files, 'run', only, group.limits, job.opts));
    const next = foldAttempt(state, interpretRun(run, job.expected, job.sourceOf), run, group.tests, group.limits);
    if (!next) return;
    if (run.testTimeout) {
      state.stoppedMs += run.testTimeout.limitMs;
      if (state.stoppedMs >= totalTimeoutMs(group.limits))
        return void (state.budgetSpent = totalTimeoutMs(group.limits));
    } else if (++kills > ports.maxResumes) return;
    state.events.push({ event: 'resumed', detail: `re-running ${next.length} test(s) that had not reported` });
    only = onlyMap(next);
  }
}

/**
 * The hidden tests alone on a submission, as grading runs them (same job, sandbox, interpretation and
 * resumption), without analysis or a report: a rubric audit's reference and mutant runs (src/audit/).
 * A test missing from `results` did not report (after an early stop: was not run).
 */
export async function runHiddenTests(
  sub: Submission,
  rubric: Rubric,
  expected: readonly ExpectedTest[],
  ports: Pick<GradePorts, 'sandbox' | 'maxResumes'>,
  opts: RunOptions = {},
): Promise<AttemptState> {
  const state = newAttemptState();
  const { files, sourceOf } = jobFiles(sub, rubric);
  await runTests(files, rubric, expected, state, ports, sourceOf, opts);
  return state;
}

/** One file's line coverage as the harness measured it, named as the submission names the file. */
export type FileCoverage = FrameOf<'coverage'>['files'][number];

/**
 * One run of the hidden tests on a rubric audit's reference with the harness measuring line coverage (trusted code,
 * still sandboxed): the run's state and, per file, its statement lines and those that ran. Nothing is resumed: lines
 * a killed run did not report are not known.
 */
export async function runWithCoverage(
  sub: Submission,
  rubric: Rubric,
  expected: readonly ExpectedTest[],
  sandbox: Sandbox,
): Promise<{ state: AttemptState; files: FileCoverage[]; errors: string[] }> {
  const { files, sourceOf, maps } = jobFiles(sub, rubric);
  const run = await sandbox.run(jobOf(rubric, files, 'run', null, rubric.spec.limits, { coverage: true }));
  const state = newAttemptState();
  foldAttempt(state, interpretRun(run, expected, sourceOf), run, expected, rubric.spec.limits);
  const out: FileCoverage[] = [];
  const errors: string[] = [];
  for (const raw of run.frames) {
    const f = raw.type === 'coverage' ? parseFrame(raw) : null;
    if (!f || 'malformed' in f || f.type !== 'coverage') continue;
    if (f.data.error) errors.push(f.data.error);
    for (const c of f.data.files) out.push(asSubmitted(c, sourceOf(c.file), files, maps));
  }
  return { state, files: out, errors };
}

/**
 * A file's coverage named and numbered as the submission has it: a TypeScript file ran type-stripped, so its lines
 * are the JavaScript's, mapped back through the transpile's source map (a file with no map is not mapped, not guessed).
 */
function asSubmitted(
  c: FileCoverage,
  source: string,
  files: Submission['files'],
  maps: ReadonlyMap<string, string>,
): FileCoverage {
  if (source === c.file) return c;
  const map = maps.get(c.file);
  const code = files.find((f) => f.path === c.file)?.content;
  if (!c.exact || map === undefined || code === undefined)
    return { file: source, executable: [], hit: [], exact: false };
  return {
    file: source,
    executable: sourceLines(code, map, c.executable),
    hit: sourceLines(code, map, c.hit),
    exact: true,
  };
}

/** The deterministic report of a submission that could not be graded (intake rejection or machine failure). */
export function failedDeterministic(
  sub: Submission,
  rubric: Rubric,
  expected: readonly ExpectedTest[],
  err: EvigradeError,
  ports: Pick<GradePorts, 'now' | 'tools'> & { backend: string },
): DeterministicReport {
  const status = err.code.startsWith('INTAKE_') ? 'rejected' : 'error';
  const why =
    status === 'rejected'
      ? `not run: the submission was rejected at intake (${err.code})`
      : `not run: the grader failed (${err.code})`;
  const tests = toTestResults(
    rubric,
    expected,
    expected.map(() => ({ status: 'error' as const, durationMs: 0, message: why })),
  );
  return assembleReport({
    // A rejected submission never reached a sandbox.
    status,
    submission: sub,
    rubric,
    backend: status === 'rejected' ? 'none' : ports.backend,
    runs: 0,
    tests,
    events: [],
    flags: [],
    errors: [err],
    analyses: [],
    timings: {},
    tools: ports.tools,
    now: ports.now(),
  });
}
