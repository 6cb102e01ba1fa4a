import { analysisView } from '../../stages/analysis/analysis-view.js';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { EvigradeError } from '../../domain/errors.js';
import type { LintSpec } from '../../domain/lint.js';
import { languageOf } from '../../domain/languages.js';
import type { AnalysisLimits } from '../../domain/rubric.js';
import type { SubmissionFile } from '../../domain/submission.js';
import type { FileAnalysis, LintMessage, Unmeasurable } from '../../domain/analysis.js';
import { newMeterSlot, readMeter, type MeterSlot } from './meter.js';
import type { AnalysisTask, TypecheckTask } from './worker.js';

export interface AnalysisRequest {
  readonly lint: LintSpec;
  readonly language: string;
  readonly limits: AnalysisLimits;
}

export interface AnalysisPort {
  /**
   * Lint + metrics per file; with `typescript`, strict type errors join each file's findings. A file the
   * submission makes unmeasurable comes back `skipped` with the reason; a failure of the grader's own
   * (a crashed or stalled thread) throws `ANALYSIS_FAILED`.
   */
  analyse(files: readonly SubmissionFile[], request: AnalysisRequest): Promise<FileAnalysis[]>;
  close(): Promise<void>;
}

export interface PoolOptions {
  readonly threads?: number;
  /**
   * A task whose thread used no CPU for this long is stuck, not slow: a grader failure. Only a safety
   * net (analysis is synchronous CPU work), so it is generous: a starved thread still advances.
   */
  readonly stallMs?: number;
  /** The grader's cache directory: lint threads keep ESLint's V8 code cache there (eslint-bundle.ts). */
  readonly cacheDir?: string;
}

// The worker always runs compiled code (dist/), also when the caller is a vitest run over src/.
const WORKER = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'dist',
  'adapters',
  'analysis',
  'worker.js',
);
/** Type checking a whole submission may take this many times one file's CPU budget. */
export const TYPECHECK_BUDGET_FACTOR = 4;
const POLL_MS = 50;

const note = (rule: string, message: string): LintMessage => ({
  rule,
  severity: 'warning',
  line: 1,
  column: 1,
  message,
});
const skippedFile = (file: string, skipped: Unmeasurable, message: string): FileAnalysis => ({
  file,
  lint: [note(`analysis.${skipped}`, message)],
  metrics: null,
  skipped,
});

type Metered<T> = { ok: T } | { over: Exclude<Unmeasurable, 'too_large' | 'parse_error'>; message: string };

/** What a failed task says about the file, or null when it says nothing about it (the grader failed). */
function fileCaused(err: Error): Exclude<Unmeasurable, 'too_large' | 'parse_error' | 'cpu_budget'> | null {
  if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') return 'out_of_memory';
  if (err instanceof RangeError || /Maximum call stack size exceeded/.test(err.message)) return 'too_deep';
  return null;
}

/** A warm pool of lint+metrics workers sized to the machine, with budgets in each task's own CPU time. */
export function createAnalysisPool(opts: PoolOptions = {}): AnalysisPort {
  const stallMs = opts.stallMs ?? 60_000;
  // Started when the first file arrives: a command that analyses nothing (an empty folder, a usage error,
  // collecting tests) never pays ESLint's start-up (≈ 0.7 s of CPU per thread).
  let pool: Piscina | null = null;
  const poolOf = (): Piscina =>
    (pool ??= new Piscina({
      filename: WORKER,
      workerData: { cacheDir: opts.cacheDir ?? null },
      maxThreads: opts.threads ?? Math.max(1, availableParallelism()),
      idleTimeout: 30_000,
      // A larger young generation: linting allocates many short-lived objects.
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 48, stackSizeMb: 8 },
    }));

  /** Runs one task; stops it when its thread's CPU passes the budget (the file's doing) or stalls (ours). */
  async function metered<T>(
    task: (slot: MeterSlot) => object,
    name: string,
    budgetMs: number,
    what: string,
  ): Promise<Metered<T>> {
    const slot = newMeterSlot();
    const abort = new AbortController();
    let verdict: 'cpu' | 'stall' | null = null;
    let last = -1;
    let still = 0;
    let startedAt = 0;
    const watch = setInterval(() => {
      const m = readMeter(slot);
      if (!m.started) return;
      startedAt ||= performance.now();
      // Without /proc (not Linux) the budget falls back to the task's wall time since it started.
      const cpu = m.cpuMs ?? performance.now() - startedAt;
      if (cpu >= budgetMs) verdict = 'cpu';
      still = cpu === last ? still + POLL_MS : 0;
      last = cpu;
      if (still >= stallMs) verdict ??= 'stall';
      if (verdict) abort.abort();
    }, POLL_MS);
    try {
      return { ok: (await poolOf().run(task(slot), { name, signal: abort.signal })) as T };
    } catch (e) {
      if (verdict === 'cpu')
        return { over: 'cpu_budget', message: `not analysed: ${what} used more than ${budgetMs} ms of CPU time` };
      if (verdict === 'stall')
        throw new EvigradeError('ANALYSIS_FAILED', `${what}: the analysis thread used no CPU for ${stallMs / 1000} s`);
      const err = e instanceof Error ? e : new Error(String(e));
      const caused = fileCaused(err);
      if (caused)
        return {
          over: caused,
          message: `not analysed: ${what} ${caused === 'too_deep' ? 'nests too deeply to analyse' : 'needs more memory than analysis allows'}`,
        };
      throw new EvigradeError('ANALYSIS_FAILED', `${what}: ${err.message.split('\n')[0]}`);
    } finally {
      clearInterval(watch);
    }
  }

  async function one(f: SubmissionFile, req: AnalysisRequest): Promise<FileAnalysis> {
    const out = await metered<FileAnalysis>(
      (meter) =>
        ({
          file: f.path,
          view: analysisView(f.path, f.content),
          spec: req.lint,
          maxCodeBytes: req.limits.max_code_kb * 1024,
          meter,
        }) satisfies AnalysisTask,
      'default',
      req.limits.cpu_ms,
      f.path,
    );
    return 'ok' in out ? out.ok : skippedFile(f.path, out.over, out.message);
  }

  /** Type errors per file; a submission too slow or too deep to type-check blocks its first file. */
  async function types(
    files: readonly SubmissionFile[],
    req: AnalysisRequest,
  ): Promise<{ errors: Map<string, LintMessage[]>; blocked: FileAnalysis | null }> {
    const task = files
      .filter((f) => languageOf(req.language).analysable.test(f.path))
      .map((f) => ({ path: f.path, view: analysisView(f.path, f.content) }));
    const first = task[0]?.path ?? '';
    const out = await metered<{ file: string; lint: LintMessage[] }[]>(
      (meter) => ({ files: task, meter }) satisfies TypecheckTask,
      'typecheckTask',
      TYPECHECK_BUDGET_FACTOR * req.limits.cpu_ms,
      'type checking',
    );
    if ('ok' in out) return { errors: new Map(out.ok.map((r) => [r.file, r.lint])), blocked: null };
    return { errors: new Map(), blocked: skippedFile(first, out.over, out.message) };
  }

  return {
    async analyse(files, req) {
      const analysable = files.filter((f) => languageOf(req.language).analysable.test(f.path));
      const [per, typed] = await Promise.all([
        Promise.all(analysable.map((f) => one(f, req))),
        req.language === 'typescript'
          ? types(files, req)
          : Promise.resolve({ errors: new Map<string, LintMessage[]>(), blocked: null }),
      ]);
      return per.map((a) => {
        const lint = [...a.lint, ...(typed.errors.get(a.file) ?? [])];
        // Type checking the submission blocked: its first file carries the note and the reason.
        const blocked = typed.blocked?.file === a.file && !a.skipped ? typed.blocked : null;
        return blocked ? { ...a, lint: [...lint, ...blocked.lint], skipped: blocked.skipped } : { ...a, lint };
      });
    },
    close: async () => {
      await pool?.destroy();
    },
  };
}
