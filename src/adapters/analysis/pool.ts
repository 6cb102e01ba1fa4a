import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { LintSpec } from '../../domain/lint.js';
import type { SubmissionFile } from '../../domain/submission.js';
import type { FileAnalysis } from '../../domain/analysis.js';
import type { AnalysisTask } from './worker.js';

export interface AnalysisPort {
  /** Lint + metrics per file; with `typescript`, strict type errors join each file's findings. */
  analyse(files: readonly SubmissionFile[], spec: LintSpec, language?: string): Promise<FileAnalysis[]>;
  close(): Promise<void>;
}

export interface PoolOptions {
  readonly threads?: number;
  /** Per-file limit: a file taking longer costs its worker thread, and is reported. */
  readonly timeoutMs?: number;
  /** Files larger than this are not parsed at all (a 1 MB minified bundle is not student style). */
  readonly maxBytes?: number;
}

const ANALYSABLE = /\.(c|m)?(js|ts)$/;
// The worker always runs compiled code (dist/), also when the caller is a vitest run over src/.
const WORKER = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'dist', 'adapters', 'analysis', 'worker.js');

const skippedFile = (file: string, skipped: 'too_large' | 'timeout' | 'failed', message: string): FileAnalysis => ({
  file,
  lint: [{ rule: `analysis.${skipped}`, severity: 'warning', line: 1, column: 1, message }],
  metrics: null,
  skipped,
});

/** A warm pool of lint+metrics workers sized to the machine. */
export function createAnalysisPool(opts: PoolOptions = {}): AnalysisPort {
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const maxBytes = opts.maxBytes ?? 256 * 1024;
  const pool = new Piscina({
    filename: WORKER,
    maxThreads: opts.threads ?? Math.max(1, availableParallelism()),
    idleTimeout: 30_000,
    // A larger young generation: linting allocates many short-lived objects.
    resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 48, stackSizeMb: 8 },
  });

  async function one(f: SubmissionFile, spec: LintSpec): Promise<FileAnalysis> {
    if (f.bytes > maxBytes) return skippedFile(f.path, 'too_large', `not analysed: ${f.bytes} bytes is more than ${maxBytes}`);
    const task: AnalysisTask = { file: f.path, code: f.content, spec };
    try {
      return (await pool.run(task, { signal: AbortSignal.timeout(timeoutMs) })) as FileAnalysis;
    } catch (e) {
      const err = e as Error;
      if (err.name === 'AbortError' || err.name === 'TimeoutError') return skippedFile(f.path, 'timeout', `not analysed: took longer than ${timeoutMs} ms`);
      return skippedFile(f.path, 'failed', `not analysed: ${err.message.split('\n')[0]}`);
    }
  }

  /** Type errors per file, or a single note when type checking itself did not finish. */
  async function types(files: readonly SubmissionFile[]): Promise<Map<string, FileAnalysis['lint']>> {
    const task = files.filter((f) => ANALYSABLE.test(f.path)).map((f) => ({ path: f.path, code: f.content }));
    try {
      const res = (await pool.run(task, { name: 'typecheckTask', signal: AbortSignal.timeout(4 * timeoutMs) })) as { file: string; lint: FileAnalysis['lint'] }[];
      return new Map(res.map((r) => [r.file, r.lint]));
    } catch (e) {
      const first = task[0]?.path ?? '';
      return new Map([[first, [{ rule: 'analysis.typecheck_failed', severity: 'warning', line: 1, column: 1, message: `type checking did not finish: ${(e as Error).message.split('\n')[0]}` }]]]);
    }
  }

  return {
    async analyse(files, spec, language = 'javascript') {
      const [per, typeErrors] = await Promise.all([
        Promise.all(files.filter((f) => ANALYSABLE.test(f.path)).map((f) => one(f, spec))),
        language === 'typescript' ? types(files) : Promise.resolve(new Map<string, FileAnalysis['lint']>()),
      ]);
      return per.map((a) => ({ ...a, lint: [...a.lint, ...(typeErrors.get(a.file) ?? [])] }));
    },
    close: () => pool.destroy(),
  };
}
