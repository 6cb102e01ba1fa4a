// `evigrade worker`: grades jobs from the Redis queue in this machine's sandbox until SIGTERM.
import { availableParallelism } from 'node:os';
import { pino } from 'pino';
import { loadConfig } from '../adapters/fs/config-loader.js';
import { parseWorkerArgs } from '../cli/args.js';
import { EXIT } from '../cli/exit.js';
import { EvigradeError } from '../domain/errors.js';
import { startWorker } from '../queue/worker.js';
import { withSandbox } from './shared.js';

/** `evigrade worker --queue redis://…`: grades jobs from the queue in this machine's sandbox until SIGTERM. */
export async function run(argv: string[]): Promise<number> {
  const args = parseWorkerArgs(argv, Math.max(1, availableParallelism()));
  const config = await loadConfig(args.config);
  const url = args.queueUrl ?? config.queue.url;
  if (!url)
    throw new EvigradeError(
      'USAGE',
      'worker: --queue redis://host:port is required (or queue.url in the config, or EVIGRADE_QUEUE)',
    );
  const log = pino({ base: { cmd: 'worker' } }, pino.destination(2));
  // A second signal kills the running jobs; they return to the queue when their locks expire.
  const hardStop = new AbortController();
  return withSandbox(args.sandbox, args.concurrency, config, hardStop.signal, async (sandbox, ports) => {
    if (!sandbox.backend.isolates)
      throw new EvigradeError('SANDBOX_UNAVAILABLE', 'worker: refusing to take jobs without an isolating sandbox');
    const worker = await startWorker({ ...config.queue, url }, args.concurrency, ports, log);
    await new Promise<void>((resolve) => {
      let stopping = false;
      const stop = (): void => {
        if (stopping) {
          // A second signal: stop now; running jobs return to the queue when their locks expire.
          hardStop.abort();
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
