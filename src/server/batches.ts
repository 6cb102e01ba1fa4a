import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { reportFileText, writeFileAtomic } from '../adapters/fs/atomic.js';
import type { BatchStatus } from '../domain/api.js';
import { asEvigradeError, EvigradeError } from '../domain/errors.js';
import type { BatchEvent, StoredInput } from '../domain/batches.js';

export type { BatchEvent };
import { ReportSchema, type Report, type Summary } from '../domain/report.js';
import { emptySubmission } from '../domain/submission.js';
import type { BatchPorts } from '../batch.js';
import {
  failedReport,
  gradeSubmission,
  retryLater,
  type GradingPorts,
  type Intake,
  type Keeping,
} from '../pipeline.js';
import type { Rubric } from '../domain/rubric.js';
import { intakeMap } from '../stages/intake/intake.js';
import { summarise } from '../stages/score/summary.js';
import type { RubricStore } from './rubric-store.js';
import type { Slots } from './slots.js';
import type { Logger } from 'pino';
import type { ExpectedTest } from '../domain/queue.js';

interface Manifest {
  readonly id: string;
  readonly rubric: string;
  readonly createdAt: string;
  readonly submissions: string[];
  /** Submissions' own names where they differ from their ids; absent in batches stored before the field. */
  readonly names?: Record<string, string>;
  /** Who asked (an API key's id), for the grading history; absent in batches stored before the field. */
  readonly requestedBy?: string;
}

/** One submission as stored: its files (intake applied again when graded), or the intake error that rejects it. */
export type StoredSubmission = { readonly id: string } & Omit<StoredInput, 'error'> & {
    readonly error?: StoredInput['error'];
  };

/** A batch as stored: each submission's files, or the intake error that rejects it. */
export interface BatchInput {
  readonly rubric: string;
  readonly submissions: readonly StoredSubmission[];
}

/** What is kept of a submission until it is graded. */
export const storedInput = (s: StoredSubmission): StoredInput => ({
  name: s.name,
  files: s.files,
  ignored: s.ignored,
  error: s.error ?? null,
  lms: s.lms,
});

export interface BatchService {
  create(req: BatchInput, requestedBy: string): Promise<BatchStatus>;
  status(id: string): Promise<BatchStatus>;
  report(id: string, submission: string): Promise<Report>;
  summary(id: string): Promise<Summary>;
  subscribe(id: string, listener: (e: BatchEvent) => void): () => void;
  /** Picks up every unfinished batch on disk (after a restart); returns how many submissions were queued. */
  resumeAll(): Promise<number>;
}

const ID = /^[0-9a-f]{16}$/;
const QUEUE_RETRY_MS = 30_000;

/**
 * Batches persisted on disk: a manifest, each submission's files, and each
 * report as soon as it exists (write-then-rename). A submission is done when
 * its report file exists, so after a restart exactly the missing ones run.
 */
/** Where background failures go: a batch runs after its request has been answered, so nobody else would hear of them. */
export type BatchLog = Pick<Logger, 'info' | 'warn' | 'error'>;

/** A stored submission through intake. */
function storedIntake(sub: string, input: StoredInput, rubric: Rubric): Intake {
  try {
    if (input.error) throw new EvigradeError(input.error.code, input.error.message);
    return { submission: intakeMap(sub, input.files, rubric, input) };
  } catch (e) {
    return { submission: emptySubmission(sub, input.name), rejected: asEvigradeError(e) };
  }
}

/**
 * One stored batch submission graded through the one path (intake → queue → judge → kept → history). A draining
 * server or a lost queue throws (SHUTTING_DOWN, QUEUE_UNAVAILABLE): the submission stays unfinished, graded later.
 */
export function gradeStored(
  batch: string,
  sub: string,
  input: StoredInput,
  loaded: { rubric: Rubric; expected: readonly ExpectedTest[] },
  ports: GradingPorts,
  keeping: Keeping,
  onStart: (where: string) => void,
): Promise<Report> {
  return gradeSubmission(
    storedIntake(sub, input, loaded.rubric),
    loaded.rubric,
    loaded.expected,
    ports,
    { scope: batch, interactive: false, onStart },
    keeping,
  );
}

export function createBatchService(
  dataDir: string,
  rubrics: RubricStore,
  slots: Slots,
  ports: BatchPorts,
  log: BatchLog,
): BatchService {
  const root = join(dataDir, 'batches');
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  const running = new Set<string>();
  const dir = (id: string): string => {
    if (!ID.test(id)) throw new EvigradeError('NOT_FOUND', `no batch "${id}"`);
    return join(root, id);
  };
  const manifest = async (id: string): Promise<Manifest> => {
    try {
      return JSON.parse(await readFile(join(dir(id), 'manifest.json'), 'utf8')) as Manifest;
    } catch (e) {
      if (e instanceof EvigradeError) throw e;
      throw new EvigradeError('NOT_FOUND', `no batch "${id}"`);
    }
  };
  const readReport = async (id: string, sub: string): Promise<Report | null> => {
    try {
      return ReportSchema.parse(JSON.parse(await readFile(join(dir(id), 'reports', `${sub}.json`), 'utf8')));
    } catch {
      return null;
    }
  };

  async function gradeOne(m: Manifest, sub: string, onStart: (where: string) => void): Promise<Report> {
    const input = JSON.parse(await readFile(join(dir(m.id), 'input', `${sub}.json`), 'utf8')) as StoredInput;
    const keep = (r: Report): Promise<void> =>
      writeFileAtomic(join(dir(m.id), 'reports', `${sub}.json`), reportFileText(r));
    return gradeStored(
      m.id,
      sub,
      input,
      rubrics.get(m.rubric),
      { ...ports, queue: { label: ports.queue.label, grade: (j) => slots.runLater(() => ports.queue.grade(j)) } },
      { requestedBy: `api:${m.requestedBy ?? 'unknown'}`, lms: input.lms, keep },
      onStart,
    );
  }

  /** A failure that is not "try later" becomes the submission's error report, so its batch ends; logged either way. */
  async function gradeOrFail(m: Manifest, sub: string, onStart: (where: string) => void): Promise<Report> {
    try {
      return await gradeOne(m, sub, onStart);
    } catch (e) {
      const err = asEvigradeError(e);
      if (retryLater(err)) throw err;
      log.error({ batch: m.id, submission: sub, code: err.code, err: err.message }, 'submission failed');
      const { rubric, expected } = rubrics.get(m.rubric);
      const report = failedReport(emptySubmission(sub), rubric, expected, err, {
        ...ports,
        backend: ports.queue.label,
      });
      // If even this cannot be written (a full disk), run() logs it and the submission stays unfinished.
      await writeFileAtomic(join(dir(m.id), 'reports', `${sub}.json`), reportFileText(report));
      return report;
    }
  }

  async function run(m: Manifest): Promise<void> {
    if (running.has(m.id)) return;
    running.add(m.id);
    try {
      const pending = [];
      const missing: string[] = [];
      for (const sub of m.submissions) if (!(await readReport(m.id, sub))) missing.push(sub);
      let done = m.submissions.length - missing.length;
      for (const sub of missing) {
        pending.push(
          gradeOrFail(m, sub, (where) =>
            bus.emit(m.id, { type: 'started', submission: sub, where, done, total: m.submissions.length }),
          ).then((report) => {
            done++;
            bus.emit(m.id, {
              type: 'submission',
              submission: sub,
              status: report.status,
              final: report.scores.final,
              done,
              total: m.submissions.length,
            });
          }),
        );
      }
      const results = await Promise.allSettled(pending);
      if (results.every((r) => r.status === 'fulfilled'))
        bus.emit(m.id, { type: 'done', done, total: m.submissions.length });
      results.forEach((r, i) => {
        if (r.status === 'fulfilled') return;
        const err = asEvigradeError(r.reason);
        // Left unfinished on disk: a retry, a restart or the next resume grades it.
        log.warn(
          { batch: m.id, submission: missing[i], code: err.code, err: err.message },
          'submission left unfinished',
        );
      });
      // The job queue was unreachable: try the unfinished ones again later (a restart would too).
      if (results.some((r) => r.status === 'rejected' && asEvigradeError(r.reason).code === 'QUEUE_UNAVAILABLE')) {
        setTimeout(() => start(m), QUEUE_RETRY_MS).unref();
      }
    } finally {
      running.delete(m.id);
    }
  }

  /** Runs a batch in the background; a failure of the run itself (its folder unreadable) is logged, never lost. */
  function start(m: Manifest): void {
    run(m).catch((e: unknown) => log.error({ batch: m.id, err: asEvigradeError(e).message }, 'batch run failed'));
  }

  /** A submission's own name, from the manifest or (older batches) its report. */
  const nameOf = (m: Manifest, sub: string, report: Report | null): { name?: string } => {
    const name = (m.names && Object.hasOwn(m.names, sub) ? m.names[sub] : undefined) ?? report?.submission.name;
    return name ? { name } : {};
  };

  async function status(id: string): Promise<BatchStatus> {
    const m = await manifest(id);
    const subs = await Promise.all(m.submissions.map(async (s) => ({ id: s, report: await readReport(id, s) })));
    const done = subs.filter((s) => s.report).length;
    return {
      id,
      rubric: m.rubric,
      createdAt: m.createdAt,
      total: m.submissions.length,
      done,
      state: done === m.submissions.length ? 'done' : 'running',
      submissions: subs.map((s) => ({
        id: s.id,
        ...nameOf(m, s.id, s.report),
        status: s.report?.status ?? null,
        final: s.report?.scores.final ?? null,
      })),
    };
  }

  return {
    async create(req, requestedBy) {
      rubrics.get(req.rubric); // unknown rubric: 404 before anything is stored
      const id = randomBytes(8).toString('hex');
      await mkdir(join(root, id, 'input'), { recursive: true });
      await mkdir(join(root, id, 'reports'), { recursive: true });
      for (const s of req.submissions) {
        await writeFileAtomic(join(root, id, 'input', `${s.id}.json`), JSON.stringify(storedInput(s)));
      }
      const m: Manifest = {
        id,
        rubric: req.rubric,
        createdAt: new Date().toISOString(),
        submissions: req.submissions.map((s) => s.id),
        names: Object.fromEntries(req.submissions.flatMap((s) => (s.name ? [[s.id, s.name]] : []))),
        requestedBy,
      };
      await writeFileAtomic(join(root, id, 'manifest.json'), JSON.stringify(m));
      start(m);
      return status(id);
    },
    status,
    async report(id, sub) {
      const m = await manifest(id);
      if (!m.submissions.includes(sub)) throw new EvigradeError('NOT_FOUND', `batch ${id} has no submission "${sub}"`);
      const r = await readReport(id, sub);
      if (!r) throw new EvigradeError('NOT_FOUND', `the report for "${sub}" is not ready yet`);
      return r;
    },
    async summary(id) {
      const m = await manifest(id);
      const reports = (await Promise.all(m.submissions.map((s) => readReport(id, s)))).filter(
        (r): r is Report => r !== null,
      );
      const { rubric } = rubrics.get(m.rubric);
      return summarise(reports, { id: rubric.spec.id, sha256: rubric.sha256 }, ports.queue.label, ports.now());
    },
    subscribe(id, listener) {
      dir(id);
      bus.on(id, listener);
      return () => bus.off(id, listener);
    },
    async resumeAll() {
      let queued = 0;
      for (const id of await readdir(root).catch(() => [] as string[])) {
        if (!ID.test(id)) continue;
        const m = await manifest(id).catch(
          (e: unknown) =>
            void log.error({ batch: id, err: asEvigradeError(e).message }, 'batch manifest unreadable; batch skipped'),
        );
        if (!m) continue;
        const st = await status(id);
        queued += st.total - st.done;
        if (st.state === 'running') start(m);
      }
      return queued;
    },
  };
}
