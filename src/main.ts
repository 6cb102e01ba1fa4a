// Composition root: the only file that wires concrete adapters to the pipeline.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino, type Logger } from 'pino';
import { createAnalysisPool } from './adapters/analysis/pool.js';
import { readSubmission } from './adapters/fs/intake.js';
import { loadConfig } from './adapters/fs/config-loader.js';
import { loadRubric } from './adapters/fs/rubric-loader.js';
import { createJudgePort, type JudgePort } from './judges/port.js';
import type { JudgeSpec } from './domain/judge.js';
import { killAllJobs } from './adapters/sandbox/process-runner.js';
import { openSandbox, type Sandbox, type SandboxChoice } from './adapters/sandbox/registry.js';
import { gradeBatch, type BatchPorts } from './batch.js';
import type { Config } from './domain/config.js';
import { createLocalQueue } from './queue/local.js';
import type { GradeQueue } from './queue/port.js';
import { openRedisQueue } from './queue/redis.js';
import { startWorker } from './queue/worker.js';
import { parseCheckArgs, parseGradeArgs, parseReportArgs, parseServeArgs, parseVerifyArgs, parseWorkerArgs } from './cli/args.js';
import { readOutDir, writeExports } from './report/write.js';
import { checkReport, compareRerun, parseReport } from './report/verify.js';
import { readFile } from 'node:fs/promises';
import { buildApp } from './http/app.js';
import { createBatchService } from './server/batches.js';
import { loadRubricStore } from './server/rubric-store.js';
import { createSlots } from './server/slots.js';
import { progressReporter } from './cli/progress.js';
import { ERROR_TABLE, EvigradeError, isEvigradeError } from './domain/errors.js';
import { isEdgeCase, testName } from './stages/report.js';
import { collectExpected, gradeDeterministic, type GradePorts } from './pipeline.js';
import { sha256 } from './util/hash.js';

const ESLINT_VERSION = (await import('eslint')).Linter.version;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const HARNESS_DIR = join(ROOT, 'sandbox', 'dist');

/** Documented in README "Exit codes". */
export const EXIT = { ok: 0, someErrored: 1, usage: 2, referenceFailed: 3, interrupted: 130 } as const;

function tools(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const expectPkg = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'expect', 'package.json'), 'utf8')) as { version: string };
  return {
    evigrade: pkg.version,
    node: process.version,
    harness: sha256(readFileSync(join(HARNESS_DIR, 'harness.cjs'))).slice(0, 16),
    expect: expectPkg.version,
    eslint: ESLINT_VERSION,
  };
}

/**
 * Where grading happens: with a queue URL, on `evigrade worker`s (this side
 * needs no sandbox); otherwise in this process's sandbox and lint pool.
 */
async function withGrading<T>(opts: { url: string | null; config: Config; choice: SandboxChoice; concurrency: number; log: Logger }, fn: (queue: GradeQueue) => Promise<T>): Promise<T> {
  if (opts.url) {
    // Workers choose their own sandbox (and never run unsandboxed); say so rather than ignore the flag.
    if (opts.choice !== 'auto') opts.log.warn({ sandbox: opts.choice }, 'the sandbox choice has no effect with a job queue: each worker uses its own');
    const queue = await openRedisQueue({ ...opts.config.queue, url: opts.url }, opts.log);
    try {
      return await fn(queue);
    } finally {
      await queue.close();
    }
  }
  return withSandbox(opts.choice, opts.concurrency, async (sandbox, ports) => {
    opts.log.info({ backend: sandbox.backend.id, isolates: sandbox.backend.isolates }, 'sandbox ready');
    if (!sandbox.backend.isolates) opts.log.warn('RUNNING SUBMISSIONS WITHOUT A SANDBOX (--unsafe-no-sandbox)');
    return fn(createLocalQueue(ports, opts.concurrency));
  });
}

async function withSandbox<T>(choice: SandboxChoice, concurrency: number, fn: (sb: Sandbox, ports: GradePorts) => Promise<T>): Promise<T> {
  const sandbox = await openSandbox(choice, HARNESS_DIR);
  // No more lint threads than submissions in flight: each thread pays ESLint's start-up once.
  const analysis = createAnalysisPool({ threads: Math.max(1, Math.min(availableParallelism(), concurrency)) });
  const ports: GradePorts = { sandbox, analysis, judge: null, now: () => new Date(), tools: tools(), maxResumes: 2 };
  try {
    return await fn(sandbox, ports);
  } finally {
    sandbox.close();
    await analysis.close();
  }
}

/** The judge chain; on a job queue its calls are spaced across every submitter (one rate budget). */
function judgeFor(args: { noLlm: boolean; judges: JudgeSpec[] | null }, config: Config, queue: GradeQueue): JudgePort {
  const setup = { disabled: args.noLlm ? 'disabled with --no-llm' : null, cliSpecs: args.judges, config, env: { hfToken: process.env.HF_TOKEN || null } };
  return createJudgePort(queue.pace ? { ...setup, pace: queue.pace } : setup);
}

async function gradeCommand(argv: string[]): Promise<number> {
  const args = parseGradeArgs(argv, Math.max(1, availableParallelism()));
  const tty = process.stderr.isTTY === true;
  const log = pino({ base: { cmd: 'grade' } }, pino.destination(2));
  const rubric = await loadRubric(args.rubric);
  const config = await loadConfig(args.config);
  const url = args.queueUrl ?? config.queue.url;
  return withGrading({ url, config, choice: args.sandbox, concurrency: args.concurrency, log }, async (queue) => {
    const judge = judgeFor(args, config, queue);
    log.info({ grading: queue.kind, rubric: rubric.spec.id, capacity: queue.capacity }, 'grading');
    const expected = await queue.collect(rubric);
    const controller = new AbortController();
    const onSignal = (): void => {
      controller.abort();
      killAllJobs(); // in-process jobs only; a queue's jobs finish on their workers and a re-run collects them
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const progress = progressReporter(log, tty);
    try {
      const opts = { submissionsDir: args.submissions, outDir: args.out, force: args.force };
      const ports: BatchPorts = { queue, judge, now: () => new Date(), tools: tools() };
      const res = await gradeBatch(rubric, expected, opts, ports, progress, controller.signal);
      progress.stop();
      const errored = res.reports.filter((r) => r.status === 'error').length;
      const line = `${res.reports.length} submissions: ${res.graded} graded now, ${res.reused} kept from an earlier run, ${errored} with grader errors -> ${args.out}`;
      if (tty) process.stdout.write(`${line}\n`);
      log.info({ graded: res.graded, reused: res.reused, errored, out: args.out }, 'batch finished');
      if (res.interrupted) return EXIT.interrupted;
      return errored > 0 ? EXIT.someErrored : EXIT.ok;
    } finally {
      progress.stop(); // also when the batch stops on an error (the bar must not hide the message)
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    }
  });
}

async function checkRubricCommand(argv: string[]): Promise<number> {
  const args = parseCheckArgs(argv);
  const rubric = await loadRubric(args.rubric);
  return withSandbox(args.sandbox, 1, async (sandbox, ports) => {
    const expected = await collectExpected(rubric, sandbox);
    process.stdout.write(`${args.rubric}: valid; ${expected.length} hidden tests in ${rubric.tests.length} file(s); sandbox ${sandbox.backend.id}\n`);
    // Said once here rather than flagged on every submission: the rubric, not a student, leaves it unmeasured.
    const edge = expected.filter((t) => isEdgeCase(rubric, testName(t))).length;
    if (rubric.spec.criteria.edge_cases > 0 && edge === 0) {
      process.stdout.write(`note: criteria.edge_cases weighs ${rubric.spec.criteria.edge_cases} but no test matches edge_cases; that weight renormalises over the other criteria in every report\n`);
    }
    if (!rubric.referenceDir) {
      process.stdout.write('warning: no reference solution; add `reference:` so the tests themselves are checked\n');
      return EXIT.ok;
    }
    const sub = await readSubmission(rubric.referenceDir, 'reference', rubric.spec.limits, rubric.spec.entry, rubric.spec.language);
    const report = await gradeDeterministic(sub, rubric, expected, ports);
    const bad = report.tests.filter((t) => t.status !== 'passed' && t.status !== 'skipped');
    if (bad.length > 0 || report.flags.some((f) => f.severity === 'critical')) {
      const lines = bad.map((t) => `  ${t.id} ${t.status}: ${t.name}\n    ${t.message.split('\n')[0] ?? ''}`);
      throw new EvigradeError('REFERENCE_FAILED', `${args.rubric}: the reference solution fails ${bad.length} of ${report.tests.length} tests:\n${lines.join('\n')}`);
    }
    process.stdout.write(`reference solution passes all ${report.tests.length} tests (score ${report.scores.deterministic.total}/10)\n`);
    return EXIT.ok;
  });
}

async function serveCommand(argv: string[]): Promise<number> {
  const args = parseServeArgs(argv, Math.max(1, availableParallelism()));
  const config = await loadConfig(args.config);
  if (config.api_keys.length === 0) throw new EvigradeError('CONFIG_INVALID', 'no API keys: set EVIGRADE_API_KEYS (comma-separated) or api_keys in the config file');
  const log = pino({ base: { cmd: 'serve' }, redact: { paths: ['req.headers.authorization', 'headers.authorization', 'body', 'files', '*.files'], censor: '[redacted]' } }, pino.destination(2));
  const url = args.queueUrl ?? config.queue.url;
  return withGrading({ url, config, choice: args.sandbox, concurrency: args.concurrency, log }, async (queue) => {
    const rubrics = await loadRubricStore(args.rubrics, (r) => queue.collect(r));
    const ports: BatchPorts = { queue, judge: judgeFor(args, config, queue), now: () => new Date(), tools: tools() };
    const slots = createSlots(queue.kind === 'local' ? args.concurrency : queue.capacity, args.backlog);
    const batches = createBatchService(args.data, rubrics, slots, ports, log);
    const app = await buildApp({
      rubrics, slots, batches, ports, apiKeys: config.api_keys, ratePerMinute: config.http.rate_per_minute, logger: log,
      judgeInfo: () => ({ ...ports.judge?.describe(), hfToken: Boolean(process.env.HF_TOKEN) }),
    });
    const resumed = await batches.resumeAll();
    await app.listen({ port: args.port, host: args.host });
    log.info({ port: (app.server.address() as { port: number }).port, grading: queue.kind, rubrics: rubrics.list().length, resumed }, 'listening');
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        log.info('draining: no new work, finishing what runs');
        void slots.drain().then(() => app.close()).then(resolve, resolve);
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
    log.info('stopped');
    return EXIT.ok;
  });
}

/** `evigrade worker --queue redis://…`: grades jobs from the queue in this machine's sandbox until SIGTERM. */
async function workerCommand(argv: string[]): Promise<number> {
  const args = parseWorkerArgs(argv, Math.max(1, availableParallelism()));
  const config = await loadConfig(args.config);
  const url = args.queueUrl ?? config.queue.url;
  if (!url) throw new EvigradeError('USAGE', 'worker: --queue redis://host:port is required (or queue.url in the config, or EVIGRADE_QUEUE)');
  const log = pino({ base: { cmd: 'worker' } }, pino.destination(2));
  return withSandbox(args.sandbox, args.concurrency, async (sandbox, ports) => {
    if (!sandbox.backend.isolates) throw new EvigradeError('SANDBOX_UNAVAILABLE', 'worker: refusing to take jobs without an isolating sandbox');
    const worker = await startWorker({ ...config.queue, url }, args.concurrency, ports, log);
    await new Promise<void>((resolve) => {
      let stopping = false;
      const stop = (): void => {
        if (stopping) {
          // A second signal: stop now; running jobs return to the queue when their locks expire.
          killAllJobs();
          void worker.abort().then(resolve, resolve);
          return;
        }
        stopping = true;
        log.info('draining: finishing the running jobs, taking no new ones');
        void worker.drain().then(resolve, resolve);
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });
    log.info('stopped');
    // BullMQ may keep reconnect timers alive after a close with Redis gone: do not outlive the drain for them.
    setTimeout(() => process.exit(process.exitCode ?? EXIT.ok), 3000).unref();
    return EXIT.ok;
  });
}

async function reportCommand(argv: string[]): Promise<number> {
  const { outDir, maxPoints } = parseReportArgs(argv);
  const { reports, summary, skipped } = await readOutDir(outDir);
  await writeExports(outDir, reports, summary, maxPoints);
  for (const s of skipped) process.stderr.write(`evigrade: skipped ${s}\n`);
  process.stdout.write(`${join(outDir, 'report.html')}: ${reports.length} submissions; gradebook exports in ${join(outDir, 'gradescope')} and ${join(outDir, 'prairielearn')}\n`);
  return EXIT.ok;
}

async function verifyCommand(argv: string[]): Promise<number> {
  const args = parseVerifyArgs(argv);
  const raw = JSON.parse(await readFile(args.report, 'utf8').catch(() => { throw new EvigradeError('USAGE', `verify: cannot read ${args.report}`); })) as unknown;
  const { report, differences } = parseReport(raw);
  const found = report ? checkReport(report) : differences;
  if (report && args.rubric && args.submission) {
    const rubric = await loadRubric(args.rubric);
    const sub = await readSubmission(args.submission, report.submission.id, rubric.spec.limits, rubric.spec.entry, rubric.spec.language);
    const again = await withSandbox(args.sandbox, 1, async (sandbox, ports) => gradeDeterministic(sub, rubric, await collectExpected(rubric, sandbox), ports));
    found.push(...compareRerun(report, again));
  }
  if (found.length === 0) {
    process.stdout.write(`${args.report}: verified (${report?.evidence.hash}${args.submission ? '; re-run matches' : '; hashes and scores consistent'})\n`);
    return EXIT.ok;
  }
  const lines = found.map((d) => `  ${d.field}: the report says ${d.report}, recomputed ${d.recomputed}`);
  throw new EvigradeError('VERIFY_FAILED', `${args.report} does not verify:\n${lines.join('\n')}`);
}

/** `evigrade sandbox build`: builds the job root file system and imports it as the Docker image. */
async function sandboxCommand(argv: string[]): Promise<number> {
  if (argv[0] !== 'build' || argv.length !== 1) throw new EvigradeError('USAGE', 'usage: evigrade sandbox build');
  const sb = await openSandbox('docker', HARNESS_DIR);
  sb.close();
  process.stdout.write('sandbox image ready (docker)\n');
  return EXIT.ok;
}

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  sandbox: sandboxCommand,
  report: reportCommand,
  verify: verifyCommand,
  grade: gradeCommand,
  'check-rubric': checkRubricCommand,
  serve: serveCommand,
  worker: workerCommand,
};

const HELP = `evigrade — evidence-grounded code grading

  evigrade grade <submissions-dir> --rubric <rubric.yaml> --out <dir>
        [--concurrency N] [--sandbox auto|docker|bwrap|unshare] [--force] [--unsafe-no-sandbox]
        [--no-llm] [--judge-endpoint URL --judge-model NAME]... [--config evigrade.config.yaml]
        [--queue redis://host:port]
  evigrade check-rubric <rubric.yaml>
  evigrade sandbox build            (imports the Docker image from the job root file system)
  evigrade report <out-dir> [--max-points N]
  evigrade verify <report.json> [--rubric <rubric.yaml> --submission <path>]
  evigrade serve --port N --rubrics <dir> [--host H] [--data <dir>] [--concurrency N] [--backlog N]
        [--queue redis://host:port]
  evigrade worker --queue redis://host:port [--concurrency N] [--sandbox auto|docker|bwrap|unshare]

  With --queue (or queue.url in the config, or EVIGRADE_QUEUE) grading runs on
  \`evigrade worker\` processes; reports are still written here, once.

Exit codes: 0 ok, 1 some submissions hit grader errors, 2 usage/rubric error,
3 reference solution fails, 4 no sandbox (or job queue) available, 5 sandbox failure, 6 verify found differences,
130 interrupted.
`;

export async function run(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(HELP);
    return cmd ? EXIT.ok : EXIT.usage;
  }
  const handler = COMMANDS[cmd];
  try {
    if (!handler) throw new EvigradeError('USAGE', `unknown command "${cmd}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
    return await handler(rest);
  } catch (e) {
    if (!isEvigradeError(e)) throw e;
    process.stderr.write(`evigrade: error ${e.code}: ${e.message}\n`);
    return ERROR_TABLE[e.code].exit;
  }
}
