import { EvigradeError } from '../domain/errors.js';
import { JobFailureSchema, type JobFailure } from '../domain/queue.js';
import { FAILURE_PREFIX } from './bull.js';

/** A worker's failure as a job failure reason (BullMQ keeps only a message). */
export const encodeFailure = (f: JobFailure): string => `${FAILURE_PREFIX}${JSON.stringify(f)}`;

/**
 * A failed job's reason, back as an error: ours carry their code; BullMQ's
 * own reasons mean the job lost its worker (SIGKILL, crash, blocked loop)
 * more often than allowed.
 */
export function decodeFailure(reason: string, maxStalled: number): EvigradeError {
  if (reason.startsWith(FAILURE_PREFIX)) {
    let parsed: ReturnType<typeof JobFailureSchema.safeParse> | null = null;
    try {
      parsed = JobFailureSchema.safeParse(JSON.parse(reason.slice(FAILURE_PREFIX.length)));
    } catch {
      parsed = null;
    }
    if (parsed?.success)
      return new EvigradeError(parsed.data.code, parsed.data.message, { backend: parsed.data.backend });
    return new EvigradeError('JOB_INVALID', `a worker reported a failure that does not parse: ${reason.slice(0, 300)}`);
  }
  if (/stalled more than allowable limit/i.test(reason)) {
    return new EvigradeError(
      'WORKER_LOST',
      `the job took its worker down ${maxStalled + 1} time(s) (killed, crashed or stalled past its lock); it is not retried again`,
    );
  }
  return new EvigradeError('WORKER_LOST', `the job failed outside the grader: ${reason.slice(0, 300)}`);
}
