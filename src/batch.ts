import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { makeOutputDir, writeFileAtomic } from './adapters/fs/atomic.js';
import { readSubmission } from './adapters/fs/intake.js';
import { EvigradeError } from './domain/errors.js';
import type { HistoryStore } from './domain/history.js';
import { ReportSchema, type DeterministicReport, type Report } from './domain/report.js';
import type { Rubric } from './domain/rubric.js';
import { emptySubmission, type Submission } from './domain/submission.js';
import type { JudgePort } from './judges/port.js';
import { asEvigradeError, failedReport, judgeReport } from './pipeline.js';
import { deterministicPart } from './stages/judgement.js';
import type { GradeQueue } from './queue/port.js';
import type { ExpectedTest } from './stages/test-run.js';
import { intake, intakeRules, mapEntries } from './stages/intake.js';
import { nameSubmissions, notASubmission } from './stages/intake-names.js';
import { withLms, type LmsSubmission } from './stages/lms/submissions.js';
import { gradesCsv, summarise } from './stages/summary.js';

export interface BatchOptions {
  readonly submissionsDir: string;
  readonly outDir: string;
  readonly force: boolean;
  /** Submissions already read from an LMS download (`grade --from`): graded instead of the folder's entries. */
  readonly prepared?: readonly LmsSubmission[];
}

/** What the submitting side needs: the queue that grades, the judge, a clock and the tool versions. */
export interface BatchPorts {
  readonly queue: GradeQueue;
  readonly judge: JudgePort | null;
  /** Where every grading is also recorded (the database history), if anywhere; files stay first class. */
  readonly history?: Pick<HistoryStore, 'record'> | null;
  readonly now: () => Date;
  readonly tools: Record<string, string>;
}

export interface BatchEvents {
  start(total: number, reused: number): void;
  /** A submission's sandbox run began (where: the backend, or the worker). */
  started?(id: string, where: string): void;
  done(id: string, report: Report, reused: boolean): void;
}

export interface BatchResult {
  readonly reports: Report[];
  readonly graded: number;
  readonly reused: number;
  readonly interrupted: boolean;
}

interface Entry {
  /** Safe as a file name (stages/intake-names.ts); `name` is the folder's or file's own. */
  readonly id: string;
  readonly name?: string;
  readonly path: string;
  /** Why the name itself is refused (a control, bidi or path character), or null. */
  readonly problem: string | null;
  readonly prepared?: LmsSubmission;
}

/** A single file's submission name is its name without the extension (`o'brien.js` → `o'brien`). */
const nameOf = (file: string, isDir: boolean): string => (isDir ? file : file.slice(0, file.length - extname(file).length) || file);

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
  const sub = intake(p.id, mapEntries(p.files), intakeRules(rubric));
  return { ...sub, ignored: [...p.ignored, ...sub.ignored] };
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


/** A finished report (reused from disk, or rejected/errored), or measurements the judge has yet to see. */
type Graded = { report: Report; reused: boolean } | { det: DeterministicReport; sub: Submission };

/** Distinguishes this process's --force run from any earlier one. */
const runId = randomUUID();

/** Intake and the deterministic stages; the judge comes after, off the sandbox's critical path. */
async function gradeEntry(e: Entry, rubric: Rubric, expected: readonly ExpectedTest[], ports: BatchPorts, opts: BatchOptions, events: BatchEvents, signal: AbortSignal): Promise<Graded> {
  const fail = (sub: Submission, err: EvigradeError): Graded => ({ report: failedReport(sub, rubric, expected, err, { ...ports, backend: ports.queue.label }), reused: false });
  if (e.problem) return fail(emptySubmission(e.id, e.name), new EvigradeError('INTAKE_PATH_INVALID', `submission "${e.id}": ${e.problem}`));
  let sub: Submission;
  try {
    sub = e.prepared ? preparedSubmission(e.prepared, rubric) : await readSubmission(e.path, e.id, rubric.spec.limits, rubric.spec.entry, rubric.spec.language, e.name);
  } catch (err) {
    return fail(emptySubmission(e.id, e.name), asEvigradeError(err));
  }
  const out = join(opts.outDir, `${e.id}.json`);
  if (!opts.force) {
    const prior = await reusable(out, rubric, sub);
    // A report whose judge failed keeps its measurements; only the judge is asked again.
    if (prior && prior.judge.status === 'failed' && ports.judge) return { det: deterministicPart(prior), sub };
    if (prior) return { report: prior, reused: true };
  }
  try {
    // Same folder, same job: a re-run collects what a queue already graded. --force asks afresh.
    const scope = opts.force ? `${resolve(opts.outDir)}#force-${runId}` : resolve(opts.outDir);
    const job = { scope, rubric, expected, submission: sub, interactive: false, onStart: (where: string) => events.started?.(e.id, where) };
    return { det: await ports.queue.grade(job, signal), sub };
  } catch (caught) {
    const err = asEvigradeError(caught);
    // Not this submission's fault: stop the batch (reports so far stay; a re-run continues).
    if (err.code === 'QUEUE_UNAVAILABLE') throw err;
    return fail(sub, err);
  }
}

/**
 * Grades every submission in a folder with bounded concurrency. One bad
 * submission never stops the batch; each report is written atomically as soon
 * as it exists, so an interrupted batch resumes where it stopped.
 */
export async function gradeBatch(rubric: Rubric, expected: readonly ExpectedTest[], opts: BatchOptions, ports: BatchPorts, events: BatchEvents, signal: AbortSignal): Promise<BatchResult> {
  await makeOutputDir(opts.outDir);
  const entries = opts.prepared ? opts.prepared.map((p) => ({ id: p.id, path: '', problem: null, prepared: p })) : await listEntries(opts.submissionsDir);
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
    const fromDisk = 'reused' in g && g.reused;
    const graded = 'det' in g ? await judgeReport(g.det, g.sub, rubric, ports) : g.report;
    const report = withLms(graded, e.prepared?.lms);
    if (fromDisk) reused++;
    else {
      await writeFileAtomic(join(opts.outDir, `${e.id}.json`), `${JSON.stringify(report, null, 2)}\n`);
      // A kept report is not a new grading; a new one is appended to the history after its file exists.
      await ports.history?.record(report, 'cli');
    }
    reports.push(report);
    events.done(e.id, report, fromDisk);
  };
  // A report that cannot be written (a full disk) stops the batch: nothing further could be kept either.
  let writeFailure: unknown = null;
  const worker = async (): Promise<void> => {
    while (!signal.aborted && writeFailure === null && next < entries.length) {
      const e = entries[next++] as Entry;
      const g = await gradeEntry(e, rubric, expected, ports, opts, events, signal);
      if (signal.aborted && 'report' in g && !g.reused && g.report.status === 'error') return; // killed by the interrupt: leave it for the re-run
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
  await writeFileAtomic(join(opts.outDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  await writeFileAtomic(join(opts.outDir, 'grades.csv'), gradesCsv(reports));
  return { reports, graded: reports.length - reused, reused, interrupted: signal.aborted };
}
