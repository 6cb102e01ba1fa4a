import type { Logger } from 'pino';
import type { BatchEvents } from '../batch.js';

/** A progress bar with ETA on a terminal (its library loaded only then); one JSON log line per submission otherwise. */
export async function progressReporter(log: Logger, tty: boolean): Promise<BatchEvents & { stop(): void }> {
  if (!tty) {
    return {
      start: (total) => log.info({ total }, 'batch started'),
      started: (id, where) => log.debug({ submission: id, where }, 'submission started'),
      done: (id, r, reused) =>
        log.info(
          { submission: id, status: r.status, final: r.scores.final, flags: r.flags.map((f) => f.code), reused },
          'submission done',
        ),
      stop: () => undefined,
    };
  }
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      format: ' grading [{bar}] {value}/{total} | {running} running | ETA {eta_formatted} | {last}',
      hideCursor: true,
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  let running = 0;
  return {
    start: (total) => bar.start(total, 0, { last: '', running }),
    started: () => bar.update({ running: ++running }),
    done: (id, r, reused) => {
      if (!reused && running > 0) running--;
      bar.increment(1, { last: `${id}: ${r.status} ${r.scores.final}${reused ? ' (kept)' : ''}`, running });
    },
    stop: () => bar.stop(),
  };
}
