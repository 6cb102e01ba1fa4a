import { EvigradeError } from '../domain/errors.js';

/**
 * Grading capacity: `slots` jobs at once (the sandbox's concurrency), plus a
 * bounded wait list for interactive requests. Beyond it a request is refused
 * at once with a Retry-After estimate, never left waiting without bound.
 * Batch work waits its turn in the same slots without a bound of its own
 * (it is already persisted), but behind interactive requests.
 */
export interface Slots {
  /** Interactive: throws QUEUE_FULL or SHUTTING_DOWN instead of queueing past the bound. */
  runNow<T>(fn: () => Promise<T>): Promise<T>;
  /** Background (batches): waits as long as it takes, behind interactive work. */
  runLater<T>(fn: () => Promise<T>): Promise<T>;
  stats(): { active: number; waiting: number; slots: number; queue: number; draining: boolean };
  retryAfterSeconds(): number;
  /** Refuse new work and resolve when everything running or queued has finished. */
  drain(): Promise<void>;
}

export function createSlots(slots: number, queue: number, typicalJobMs = 2000): Slots {
  let active = 0;
  let draining = false;
  type Waiter = { go: () => void; stop: (e: Error) => void };
  const urgent: Waiter[] = [];
  const later: Waiter[] = [];
  const idle: (() => void)[] = [];
  const next = (): void => {
    while (active < slots && (urgent.length || later.length)) {
      active++;
      (urgent.shift() ?? later.shift())?.go();
    }
    if (active === 0 && !urgent.length && !later.length) for (const r of idle.splice(0)) r();
  };
  const run = async <T>(list: Waiter[], fn: () => Promise<T>): Promise<T> => {
    await new Promise<void>((go, stop) => {
      list.push({ go, stop });
      next();
    });
    try {
      return await fn();
    } finally {
      active--;
      next();
    }
  };
  const retryAfterSeconds = (): number => Math.max(1, Math.ceil(((urgent.length + 1) * typicalJobMs) / slots / 1000));
  return {
    runNow(fn) {
      if (draining) throw new EvigradeError('SHUTTING_DOWN', 'the server is shutting down and takes no new work');
      if (active >= slots && urgent.length >= queue) {
        throw new EvigradeError('QUEUE_FULL', `all ${slots} grading slots and ${queue} queue places are taken`, {
          retryAfter: retryAfterSeconds(),
        });
      }
      return run(urgent, fn);
    },
    runLater(fn) {
      if (draining) return Promise.reject(new EvigradeError('SHUTTING_DOWN', 'the server is shutting down'));
      return run(later, fn);
    },
    stats: () => ({ active, waiting: urgent.length + later.length, slots, queue, draining }),
    retryAfterSeconds,
    drain() {
      draining = true;
      // Batch work not yet started stays persisted and resumes after the restart.
      for (const w of later.splice(0)) w.stop(new EvigradeError('SHUTTING_DOWN', 'the server is shutting down'));
      return new Promise<void>((r) => {
        idle.push(r);
        next();
      });
    },
  };
}
