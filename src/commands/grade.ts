// `evigrade grade`: a folder of submissions, graded and judged, reports written as they finish.
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import type { Download } from '../adapters/archive/download.js';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../domain/config.js';
import type { Rubric } from '../domain/rubric.js';
import { loadConfig } from '../adapters/fs/config-loader.js';
import { entryFileName } from '../adapters/fs/intake.js';
import { loadRubric } from '../adapters/fs/rubric-loader.js';
import { gradeBatch, listEntries, referenceProblem, type BatchPorts, type BatchResult } from '../batch.js';
import { EvigradeError } from '../domain/errors.js';
import { parseGradeArgs, type GradeArgs } from '../cli/args.js';
import { EXIT } from '../cli/exit.js';
import { progressReporter } from '../cli/progress.js';
import { runSummaryText } from '../report/run-summary.js';
import { cliLogger } from '../cli/log.js';
import { judgeFor, referenceCache, tools, withGrading } from './shared.js';
import type { Store } from './store.js';
import { fileOverrides } from '../adapters/fs/overrides.js';
import { allOverrides, historyOverrides } from '../adapters/store/overrides.js';

export async function run(argv: string[]): Promise<number> {
  const args = parseGradeArgs(argv, Math.max(1, availableParallelism()));
  // The progress bar only on a terminal, and never beside machine logs (both would write to stderr).
  const tty = process.stderr.isTTY === true && args.log === null;
  // Before any sandbox or queue: an empty folder is almost always the wrong folder.
  if (!args.from && (await listEntries(args.submissions)).length === 0) {
    throw new EvigradeError(
      'USAGE',
      `no submissions in "${args.submissions}": expected one file or folder per student (hidden files are ignored)`,
    );
  }
  // Machine logs only on request (--log json), always on stderr: stdout carries the summary a person reads.
  const log = cliLogger('grade', args.log);
  const rubric = await loadRubric(args.rubric);
  // An LMS download is read (and refused, if it must be) before any sandbox starts.
  const download = args.from
    ? await (
        await import('../adapters/archive/download.js')
      ).readDownload(args.submissions, args.from, args.attempts, entryFileName(rubric.spec.entry, rubric.spec.language))
    : null;
  // Entries the LMS's naming does not explain are never guessed at: a person must see them (a warning).
  if (download)
    log[download.unmatched.length ? 'warn' : 'info'](
      { system: download.system, submissions: download.submissions.length, unmatched: download.unmatched },
      'LMS download read',
    );
  const config = await loadConfig(args.config);
  const url = args.queueUrl ?? config.queue.url;
  const dbAt = args.db ?? config.db.url;
  // Opened (and migrated) before any grading: a wrong database fails the run at once, not after the batch.
  const store = dbAt ? await (await import('./store.js')).openStore(dbAt) : null;
  if (store) log.info({ history: store.label }, 'recording the grading history');
  try {
    return await gradeWith(args, rubric, config, url, store, log, tty, download);
  } finally {
    await store?.close();
  }
}

/** With --db the batch is recorded too, its reports exactly as written, so `history --export` gives these files back. */
async function recordBatch(
  store: Store,
  rubric: Rubric,
  res: BatchResult,
  out: string,
  label: string,
  createdAt: Date,
): Promise<string> {
  const id = `cli-${randomBytes(8).toString('hex')}`;
  const ids = res.reports.map((r) => r.submission.id).sort();
  const reports = await Promise.all(
    ids.map(async (sub) => ({ id: sub, text: await readFile(join(out, `${sub}.json`), 'utf8') })),
  );
  await store.batches.recordCli(
    {
      id,
      origin: 'cli',
      rubricId: rubric.spec.id,
      rubricSha: rubric.sha256,
      requestedBy: 'cli',
      createdAt: createdAt.toISOString(),
      total: reports.length,
      label,
      summarisedAt: res.summary.generatedAt,
    },
    reports,
  );
  return id;
}

async function gradeWith(
  args: GradeArgs,
  rubric: Rubric,
  config: Config,
  url: string | null,
  store: Store | null,
  log: Logger,
  tty: boolean,
  download: Download | null,
): Promise<number> {
  const history = store?.history ?? null;
  const createdAt = new Date();
  // Ctrl-C: stop starting submissions and kill the in-process jobs (a queue's jobs finish on their workers; a re-run collects them).
  const controller = new AbortController();
  return withGrading(
    { url, config, choice: args.sandbox, concurrency: args.concurrency, log, signal: controller.signal },
    async (queue) => {
      const judge = judgeFor(args, config, queue);
      log.info({ grading: queue.kind, rubric: rubric.spec.id, capacity: queue.capacity }, 'grading');
      const expected = await queue.collect(rubric);
      // Before any student: a reference that fails its own tests would grade the whole class 0 without a word.
      const problem = await referenceProblem(rubric, expected, queue, args.rubric, referenceCache());
      if (problem && !args.allowFailingReference)
        throw new EvigradeError(
          'REFERENCE_FAILED',
          `${problem.message}\nNot grading the class against it: fix the rubric (evigrade check-rubric ${args.rubric}), or pass --allow-failing-reference to grade anyway.`,
        );
      if (problem)
        log.warn({ reference: problem.message }, 'grading against a failing reference (--allow-failing-reference)');
      const onSignal = (): void => controller.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      const progress = await progressReporter(log, tty);
      try {
        const opts = {
          submissionsDir: args.submissions,
          outDir: args.out,
          force: args.force,
          ...(download && { prepared: download.submissions }),
        };
        const onFile = fileOverrides(args.out);
        const overrides = history ? allOverrides([onFile, historyOverrides(history)]) : onFile;
        const ports: BatchPorts = { queue, judge, history, overrides, now: () => new Date(), tools: tools() };
        const res = await gradeBatch(rubric, expected, opts, ports, progress, controller.signal);
        progress.stop();
        const batch =
          store && !res.interrupted ? await recordBatch(store, rubric, res, args.out, queue.label, createdAt) : null;
        if (batch) log.info({ batch }, 'batch recorded in the store');
        // The same counts as summary.json (by status), then how many were processed now or kept.
        const by = (s: string): number => res.reports.filter((r) => r.status === s).length;
        const errored = by('error');
        const counts = { count: res.reports.length, graded: by('graded'), rejected: by('rejected'), errored };
        process.stdout.write(runSummaryText(res, args.out, rubric.spec.title, batch));
        log.info({ ...counts, processedNow: res.graded, reused: res.reused, out: args.out }, 'batch finished');
        if (res.interrupted) return EXIT.interrupted;
        return errored > 0 ? EXIT.someErrored : EXIT.ok;
      } finally {
        progress.stop(); // also when the batch stops on an error (the bar must not hide the message)
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
      }
    },
  );
}
