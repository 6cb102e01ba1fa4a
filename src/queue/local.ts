import { collectExpected, gradeDeterministic, type GradePorts } from '../engine.js';
import type { GradeQueue } from './port.js';

/**
 * The embedded default: jobs run in this process's sandbox and lint pool.
 * Callers bound concurrency (`capacity` = the sandbox concurrency); nothing
 * is queued here, so there is nothing to lose on a crash either.
 */
export function createLocalQueue(ports: GradePorts, concurrency: number): GradeQueue {
  return {
    kind: 'local',
    capacity: concurrency,
    label: ports.sandbox.backend.id,
    collect: (rubric) => collectExpected(rubric, ports.sandbox),
    expect: (jobs) => ports.sandbox.expect?.(jobs),
    grade: (job) => {
      job.onStart?.(ports.sandbox.backend.id);
      return gradeDeterministic(job.submission, job.rubric, job.expected, ports);
    },
    health: async () => ({
      ready: ports.sandbox.backend.isolates,
      kind: 'local',
      backend: ports.sandbox.backend.id,
      isolates: ports.sandbox.backend.isolates,
    }),
    close: async () => undefined,
  };
}
