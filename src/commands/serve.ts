// `evigrade serve`: the HTTP service (fastify), batches on disk, SSE progress.
import { availableParallelism } from 'node:os';
import { pino, type Logger } from 'pino';
import type { Config } from '../domain/config.js';
import { loadConfig } from '../adapters/fs/config-loader.js';
import { referenceProblem, type BatchPorts } from '../batch.js';
import { parseServeArgs, type ServeArgs } from '../cli/args.js';
import { EXIT } from '../cli/exit.js';
import { EvigradeError } from '../domain/errors.js';
import { buildApp } from '../http/app.js';
import { createBatchService, type BatchService } from '../server/batches.js';
import { loadRubricStore, type RubricStore } from '../server/rubric-store.js';
import { createSlots, type Slots } from '../server/slots.js';
import { createAuditService, type AuditService } from '../server/audits.js';
import { judgeFor, referenceCache, tools, withGrading } from './shared.js';
import { openStore, type Store } from './store.js';
import { historyOverrides } from '../adapters/store/overrides.js';

export async function run(argv: string[]): Promise<number> {
  const args = parseServeArgs(argv, Math.max(1, availableParallelism()));
  const config = await loadConfig(args.config);
  if (config.api_keys.length === 0)
    throw new EvigradeError(
      'CONFIG_INVALID',
      'no API keys: set EVIGRADE_API_KEYS (comma-separated) or api_keys in the config file',
    );
  const log = pino(
    {
      base: { cmd: 'serve' },
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', 'body', 'files', '*.files'],
        censor: '[redacted]',
      },
    },
    pino.destination(2),
  );
  const url = args.queueUrl ?? config.queue.url;
  const dbAt = args.db ?? config.db.url;
  const store = dbAt ? await openStore(dbAt) : null;
  try {
    return await serveWith(args, config, url, store, log);
  } finally {
    await store?.close();
  }
}

/** Batches in the store when there is one (replicas share them), else in the data directory (one server per directory). */
async function batchService(
  args: ServeArgs,
  config: Config,
  store: Store | null,
  parts: { rubrics: RubricStore; slots: Slots; ports: BatchPorts; log: Logger },
): Promise<BatchService & { close?: () => Promise<void> }> {
  if (!store) return createBatchService(args.data, parts.rubrics, parts.slots, parts.ports, parts.log);
  const { createStoredBatchService } = await import('../server/stored-batches.js');
  return createStoredBatchService(
    store.batches,
    parts.rubrics,
    parts.slots,
    { ...parts.ports, history: null },
    parts.log,
    config.db.lease_ms,
  );
}

/** Audits run each in a sandbox of their own; a server without one (--unsafe-no-sandbox) runs none. */
function auditService(args: ServeArgs, rubrics: RubricStore): AuditService | null {
  if (args.sandbox === 'unsafe') return null;
  return createAuditService({
    rubrics,
    now: () => new Date(),
    run: async (rubric, onProgress) => {
      const { auditWithSandbox } = await import('./audit.js');
      return auditWithSandbox(rubric, args.sandbox, args.concurrency, onProgress);
    },
  });
}

async function serveWith(
  args: ServeArgs,
  config: Config,
  url: string | null,
  store: Store | null,
  log: Logger,
): Promise<number> {
  const history = store?.history ?? null;
  return withGrading({ url, config, choice: args.sandbox, concurrency: args.concurrency, log }, async (queue) => {
    const rubrics = await loadRubricStore(
      args.rubrics,
      (r) => queue.collect(r),
      async (r, expected) => {
        const problem = await referenceProblem(r, expected, queue, r.path, referenceCache());
        if (problem) log.warn({ rubric: r.spec.id, reference: problem.message }, 'reference fails: batches refused');
        return problem;
      },
    );
    const ports: BatchPorts = {
      queue,
      judge: judgeFor(args, config, queue),
      history,
      // An instructor's item decisions live in the history (POST /submissions/{id}/overrides): every regrade reads them.
      overrides: history ? historyOverrides(history) : null,
      now: () => new Date(),
      tools: tools(),
    };
    const slots = createSlots(queue.kind === 'local' ? args.concurrency : queue.capacity, args.backlog);
    const batches = await batchService(args, config, store, { rubrics, slots, ports, log });
    const app = await buildApp({
      rubrics,
      slots,
      batches,
      ports,
      history,
      audits: auditService(args, rubrics),
      apiKeys: config.api_keys,
      ratePerMinute: config.http.rate_per_minute,
      logger: log,
      judgeInfo: () => ({ ...ports.judge?.describe(), hfToken: Boolean(process.env.HF_TOKEN) }),
    });
    const resumed = await batches.resumeAll();
    await app.listen({ port: args.port, host: args.host });
    log.info(
      {
        port: (app.server.address() as { port: number }).port,
        grading: queue.kind,
        rubrics: rubrics.list().length,
        resumed,
      },
      'listening',
    );
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        log.info('draining: no new work, finishing what runs');
        void slots
          .drain()
          .then(() => app.close())
          .then(() => batches.close?.())
          .then(resolve, resolve);
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
    log.info('stopped');
    return EXIT.ok;
  });
}
