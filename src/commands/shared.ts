// What every command shares: tool versions, where grading runs (sandbox and lint pool, or a job queue),
// and the judge chain. Heavy adapters (BullMQ, the HTTP stack) are loaded by the commands that use them.
import { readFileSync } from 'node:fs';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { createAnalysisPool } from '../adapters/analysis/pool.js';
import { openSandbox, type Sandbox, type SandboxChoice } from '../adapters/sandbox/registry.js';
import { cachedCollect } from '../adapters/fs/collect-cache.js';
import { primeTestRewrites } from '../adapters/fs/rewrite-cache.js';
import type { ReferenceCache } from '../batch.js';
import { cacheDir, cacheRoot } from '../runtime/cache.js';
import type { Config } from '../domain/config.js';
import type { Rubric } from '../domain/rubric.js';
import type { JudgeSpec } from '../domain/judge.js';
import { createJudgePort, type JudgePort } from '../judges/port.js';
import type { GradePorts } from '../engine.js';
import { createLocalQueue } from '../queue/local.js';
import type { GradeQueue } from '../queue/port.js';
import { sha256 } from '../util/hash.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const HARNESS_DIR = join(ROOT, 'sandbox', 'dist');

const version = (pkg: string): string =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

/** Versions that make a report reproducible (eslint's from its package file: importing ESLint here costs 0.3 s). */
export function tools(): Record<string, string> {
  return {
    evigrade: (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    node: process.version,
    harness: sha256(readFileSync(join(HARNESS_DIR, 'harness.cjs'))).slice(0, 16),
    expect: version('expect'),
    eslint: version('eslint'),
  };
}

/**
 * Where grading happens: with a queue URL, on `evigrade worker`s (this side
 * needs no sandbox); otherwise in this process's sandbox and lint pool.
 */
export async function withGrading<T>(
  opts: {
    url: string | null;
    config: Config;
    choice: SandboxChoice;
    concurrency: number;
    log: Logger;
    signal?: AbortSignal;
  },
  fn: (queue: GradeQueue) => Promise<T>,
): Promise<T> {
  if (opts.url) {
    // Workers choose their own sandbox (and never run unsandboxed); say so rather than ignore the flag.
    if (opts.choice !== 'auto')
      opts.log.warn(
        { sandbox: opts.choice },
        'the sandbox choice has no effect with a job queue: each worker uses its own',
      );
    const { openRedisQueue } = await import('../queue/redis.js');
    const queue = await openRedisQueue({ ...opts.config.queue, url: opts.url }, opts.log);
    try {
      return await fn(queue);
    } finally {
      await queue.close();
    }
  }
  return withSandbox(opts.choice, opts.concurrency, opts.config, opts.signal, async (sandbox, ports) => {
    opts.log.info({ backend: sandbox.backend.id, isolates: sandbox.backend.isolates }, 'sandbox ready');
    if (!sandbox.backend.isolates) opts.log.warn('RUNNING SUBMISSIONS WITHOUT A SANDBOX (--unsafe-no-sandbox)');
    const local = createLocalQueue(ports, opts.concurrency);
    // The collection is kept on disk by everything that shapes it, so a later run of the same rubric skips it; so
    // is the tests' CommonJS rewrite every job's payload carries (a rubric is collected before any job of it runs).
    const keyOf = (r: Rubric): string =>
      sha256([r.sha256, ports.tools.harness, process.version, sandbox.backend.id].join('|'));
    return fn({
      ...local,
      collect: (r) => {
        primeTestRewrites(cacheDir('rewrite'), r);
        return cachedCollect(cacheDir('collect'), keyOf(r), () => local.collect(r));
      },
    });
  });
}

/** Sandbox jobs in flight that one lint thread serves (measured: bench/README.md). */
const LINT_JOBS = 4;

/** `signal`: aborted on Ctrl-C or shutdown, it kills every job the sandbox runs (their runs reject: no evidence). */
export async function withSandbox<T>(
  choice: SandboxChoice,
  concurrency: number,
  config: Pick<Config, 'sandbox'>,
  signal: AbortSignal | undefined,
  fn: (sb: Sandbox, ports: GradePorts) => Promise<T>,
): Promise<T> {
  const sandbox = await openSandbox(choice, HARNESS_DIR, {
    dockerPool: config.sandbox.docker_pool,
    dockerCell: config.sandbox.docker_cell,
    pythonForkServer: config.sandbox.python_fork_server,
    ...(signal ? { signal } : {}),
  });
  // Each lint thread pays ESLint's start-up (≈ 0.4 s of CPU) when a file first needs it, and lints a small
  // file in ≈ 5 ms while that submission's sandbox job takes ≈ 0.1 s: one thread per LINT_JOBS jobs keeps up.
  const threads = Math.max(1, Math.min(availableParallelism(), Math.ceil(concurrency / LINT_JOBS)));
  const analysis = createAnalysisPool({ threads, cacheDir: cacheRoot() });
  const ports: GradePorts = { sandbox, analysis, now: () => new Date(), tools: tools(), maxResumes: 2 };
  try {
    return await fn(sandbox, ports);
  } finally {
    sandbox.close();
    await analysis.close();
  }
}

/** The judge chain; on a job queue its calls are spaced across every submitter (one rate budget). */
export function judgeFor(
  args: { noLlm: boolean; judges: JudgeSpec[] | null },
  config: Config,
  queue: GradeQueue,
): JudgePort {
  const setup = {
    disabled: args.noLlm ? 'disabled with --no-llm' : null,
    cliSpecs: args.judges,
    config,
    env: { hfToken: process.env.HF_TOKEN || null },
  };
  return createJudgePort(queue.pace ? { ...setup, pace: queue.pace } : setup);
}

/**
 * Passing references remembered in the grader's cache folder (an empty file per rubric and reference hash, under a
 * folder named after the harness and node version that graded them), so a class graded again does not pay for it.
 */
export function referenceCache(): ReferenceCache {
  const dir = join(cacheDir('reference'), sha256([tools().harness, process.version].join('|')).slice(0, 16));
  const file = (key: string): string => join(dir, key);
  return {
    has: (key) =>
      access(file(key)).then(
        () => true,
        () => false,
      ),
    add: (key) =>
      mkdir(dir, { recursive: true, mode: 0o700 })
        .then(() => writeFile(file(key), ''))
        .catch(() => undefined),
  };
}
