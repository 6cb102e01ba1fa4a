import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { makeOutputDir, reportFileText, writeBatchFiles, writeFileAtomic } from './adapters/fs/atomic.js';
import { readReference, readSubmission } from './adapters/fs/intake.js';
import { EvigradeError } from './domain/errors.js';
import { ReportSchema, type Report, type Summary } from './domain/report.js';
import type { Rubric } from './domain/rubric.js';
import { emptySubmission, type Submission } from './domain/submission.js';
import { asEvigradeError } from './domain/errors.js';
import { conclude, measure, type GradingPorts, type Intake, type Measured } from './pipeline.js';
import { deterministicPart } from './stages/judge/judgement.js';
import type { GradeQueue } from './queue/port.js';
import type { DeterministicReport } from './domain/report.js';
import type { ExpectedTest } from './domain/queue.js';
import { intakeMap } from './stages/intake/intake.js';
import { nameSubmissions, notASubmission } from './stages/intake/intake-names.js';
import type { LmsSubmission } from './stages/lms/submissions.js';
import { summarise } from './stages/score/summary.js';

export interface BatchOptions {
  readonly submissionsDir: string;
  readonly outDir: string;
  readonly force: boolean;
  /** Submissions already read from an LMS download (`grade --from`): graded instead of the folder's entries. */
  readonly prepared?: readonly LmsSubmission[];
}

/** What the submitting side needs: the queue that grades (and how many jobs it takes at once), the judge, the history. */
export interface BatchPorts extends GradingPorts {
  readonly queue: GradeQueue;
}

export interface BatchEvents {
  start(total: number, reused: number): void;
  /** A submission's sandbox run began (where: the backend, or the worker). */
  started?(id: string, where: string): void;
  done(id: string, report: Report, reused: boolean): void;
}

export interface BatchResult {
  readonly reports: Report[];
  /** What summary.json holds. */
  readonly summary: Summary;
  readonly graded: number;
  readonly reused: number;
  readonly interrupted: boolean;
}

interface Entry {
  /** Safe as a file name (stages/intake/intake-names.ts); `name` is the folder's or file's own. */
  readonly id: string;
  readonly name?: string;
  readonly path: string;
  /** Why the name itself is refused (a control, bidi or path character), or null. */
  readonly problem: string | null;
  readonly prepared?: LmsSubmission;
}

/** A single file's submission name is its name without the extension (`o'brien.js` → `o'brien`). */
const nameOf = (file: string, isDir: boolean): string =>
  isDir ? file : file.slice(0, file.length - extname(file).length) || file;

export async function listEntries(dir: string): Promise<Entry[]> {
  const dirents = await readdir(dir, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    throw new EvigradeError('USAGE', `submissions folder "${dir}" cannot be read (${e.code ?? e.message})`);
  });
  const shown = dirents.filter((d) => !notASubmission(d.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
  const named = nameSubmissions(shown.map((d) => ({ raw: d.name, name: nameOf(d.name, d.isDirectory()) })));
  return shown.map((d, i) => {
    const n = named[i] as (typeof named)[number];
    return { id: n.id, ...(n.name !== n.id && { name: n.name }), path: join(dir, d.name), problem: n.problem };
  });
}

/** A download's submission through intake; the download's own ignored entries stay listed. */
function preparedSubmission(p: LmsSubmission, rubric: Rubric): Submission {
  if (p.error) throw new EvigradeError(p.error.code, p.error.message, { submission: p.id });
  return intakeMap(p.id, p.files, rubric, { ignored: p.ignored });
}

/** A report already on disk counts as done if it is valid and for the same rubric and submission. */
async function reusable(path: string, rubric: Rubric, sub: Submission): Promise<Report | null> {
  try {
    const r = ReportSchema.parse(JSON.parse(await readFile(path, 'utf8')));
    return r.status !== 'error' && r.rubric.sha256 === rubric.sha256 && r.submission.sha256 === sub.sha256 ? r : null;
  } catch {
    return null;
  }
}

/** Distinguishes this process's --force run from any earlier one. */
const runId = randomUUID();

/** The entry through intake: its submission, or why it is rejected. */
async function intakeOf(e: Entry, rubric: Rubric): Promise<Intake> {
  if (e.problem)
    return {
      submission: emptySubmission(e.id, e.name),
      rejected: new EvigradeError('INTAKE_PATH_INVALID', `submission "${e.id}": ${e.problem}`),
    };
  try {
    return {
      submission: e.prepared
        ? preparedSubmission(e.prepared, rubric)
        : await readSubmission(e.path, e.id, rubric.spec.limits, rubric.spec.entry, rubric.spec.language, e.name),
    };
  } catch (err) {
    return { submission: emptySubmission(e.id, e.name), rejected: asEvigradeError(err) };
  }
}

/** Measured now, or a report kept on disk from an earlier run; null when the interrupt stopped it (left for the re-run). */
type Graded = Measured & { reused?: boolean };

/** Intake and the deterministic stages; the judge comes after, off the sandbox's critical path. */
async function gradeEntry(
  e: Entry,
  rubric: Rubric,
  expected: readonly ExpectedTest[],
  ports: BatchPorts,
  opts: BatchOptions,
  events: BatchEvents,
  signal: AbortSignal,
): Promise<Graded | null> {
  const intake = await intakeOf(e, rubric);
  if (!intake.rejected && !opts.force) {
    const prior = await reusable(join(opts.outDir, `${e.id}.json`), rubric, intake.submission);
    // A report whose judge failed keeps its measurements; only the judge is asked again.
    if (prior && prior.judge.status === 'failed' && ports.judge)
      return { det: deterministicPart(prior), sub: intake.submission };
    if (prior) return { report: prior, reused: true };
  }
  // Same folder, same job: a re-run collects what a queue already graded. --force asks afresh.
  const scope = opts.force ? `${resolve(opts.outDir)}#force-${runId}` : resolve(opts.outDir);
  try {
    const m = await measure(
      intake,
      rubric,
      expected,
      { scope, interactive: false, onStart: (where) => events.started?.(e.id, where) },
      ports,
      signal,
    );
    // Killed by the interrupt: leave it for the re-run.
    return signal.aborted && 'report' in m && m.report.status === 'error' ? null : m;
  } catch (err) {
    if (signal.aborted) return null;
    throw err; // the queue is gone: stop the batch (reports so far stay; a re-run continues)
  }
}

/**
 * Grades every submission in a folder with bounded concurrency. One bad
 * submission never stops the batch; each report is written atomically as soon
 * as it exists, so an interrupted batch resumes where it stopped.
 */
export async function gradeBatch(
  rubric: Rubric,
  expected: readonly ExpectedTest[],
  opts: BatchOptions,
  ports: BatchPorts,
  events: BatchEvents,
  signal: AbortSignal,
): Promise<BatchResult> {
  await makeOutputDir(opts.outDir);
  const entries = opts.prepared
    ? opts.prepared.map((p) => ({ id: p.id, path: '', problem: null, prepared: p }))
    : await listEntries(opts.submissionsDir);
  // Each submission in flight listens for the interrupt: hundreds at once with a remote queue.
  setMaxListeners(ports.queue.capacity + 16, signal);
  const reports: Report[] = [];
  let reused = 0;
  let next = 0;
  events.start(entries.length, 0);
  const judging = new Set<Promise<void>>();
  // Judge calls overlap with sandbox work; this many may wait before the sandbox side pauses.
  const maxPending = Math.max(8, ports.queue.capacity * 4);
  const finish = async (e: Entry, g: Graded): Promise<void> => {
    const fromDisk = g.reused === true;
    // A kept report is not a new grading; a new one is appended to the history after its file exists.
    const keep = async (r: Report): Promise<void> =>
      writeFileAtomic(join(opts.outDir, `${e.id}.json`), reportFileText(r));
    const report =
      fromDisk && 'report' in g
        ? g.report
        : await conclude(g, rubric, ports, { requestedBy: 'cli', lms: e.prepared?.lms, keep });
    if (fromDisk) reused++;
    reports.push(report);
    events.done(e.id, report, fromDisk);
  };
  // A report that cannot be written (a full disk) stops the batch: nothing further could be kept either.
  let writeFailure: unknown = null;
  const worker = async (): Promise<void> => {
    while (!signal.aborted && writeFailure === null && next < entries.length) {
      const e = entries[next++] as Entry;
      const g = await gradeEntry(e, rubric, expected, ports, opts, events, signal);
      if (g === null) return;
      const p: Promise<void> = finish(e, g)
        .catch((err: unknown) => void (writeFailure ??= err))
        .finally(() => judging.delete(p));
      judging.add(p);
      while (judging.size >= maxPending) await Promise.race(judging);
    }
  };
  // As many submissions in flight as the queue takes: the sandbox concurrency in-process, many more for remote workers.
  await Promise.all(Array.from({ length: Math.max(1, Math.min(ports.queue.capacity, entries.length)) }, worker));
  await Promise.all(judging);
  if (writeFailure !== null) throw writeFailure;
  const summary = summarise(reports, { id: rubric.spec.id, sha256: rubric.sha256 }, ports.queue.label, ports.now());
  await writeBatchFiles(opts.outDir, summary, reports);
  return { reports, summary, graded: reports.length - reused, reused, interrupted: signal.aborted };
}

/**
 * The rubric's reference graded as a class would be, through the same queue: null when it passes every hidden test,
 * else REFERENCE_FAILED with `check-rubric`'s message. A reference that fails (a typo in the tests' import, a
 * reference folder without the entry) would grade every student 0 without a word, so `grade`, `POST /batches`
 * and LMS imports refuse the class unless the instructor overrides. No `reference:` in the rubric: nothing to check.
 */
export async function referenceProblem(
  rubric: Rubric,
  expected: readonly ExpectedTest[],
  queue: Pick<GradeQueue, 'grade'>,
  label: string,
  passed?: ReferenceCache,
): Promise<EvigradeError | null> {
  let sub: Submission | null;
  try {
    sub = await readReference(rubric, label);
  } catch (err) {
    return asEvigradeError(err);
  }
  if (!sub) return null;
  // Once per rubric and reference: a pass is remembered (a failure is checked again, so a fix shows at once).
  const key = `${rubric.sha256}-${sub.sha256}`;
  if (await passed?.has(key)) return null;
  const report = await queue.grade({
    scope: `reference:${key}`,
    rubric,
    expected,
    submission: sub,
    interactive: false,
  });
  const problem = referenceVerdict(report, label);
  if (!problem) await passed?.add(key);
  return problem;
}

/** Where passing references are remembered: the grader's cache folder for the CLI, memory for a server. */
export interface ReferenceCache {
  has(key: string): Promise<boolean>;
  add(key: string): Promise<void>;
}

/** REFERENCE_FAILED naming each test the reference does not pass (and a critical flag's code), or null. */
export function referenceVerdict(report: DeterministicReport, label: string): EvigradeError | null {
  const bad = report.tests.filter((t) => t.status !== 'passed' && t.status !== 'skipped');
  const critical = report.flags.filter((f) => f.severity === 'critical').map((f) => f.code);
  if (report.status === 'graded' && bad.length === 0 && critical.length === 0) return null;
  // Status `rejected` or `error` with no test run: its errors say why (the reference itself, or the machine).
  if (report.tests.length === 0) {
    const why = report.errors.map((e) => `${e.code}: ${e.message}`).join('; ') || `status ${report.status}`;
    return new EvigradeError('REFERENCE_FAILED', `${label}: the reference solution was not graded: ${why}`);
  }
  const lines = bad.map((t) => `  ${t.id} ${t.status}: ${t.name}\n    ${t.message.split('\n')[0] ?? ''}`);
  if (critical.length > 0) lines.push(`  flagged: ${critical.join(', ')}`);
  return new EvigradeError(
    'REFERENCE_FAILED',
    `${label}: the reference solution fails ${bad.length} of ${report.tests.length} tests:\n${lines.join('\n')}`,
  );
}
