import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { GradeRequestSchema } from '../../domain/api.js';
import type { Submission } from '../../domain/submission.js';
import { gradeSubmission } from '../../pipeline.js';
import { EvigradeError } from '../../domain/errors.js';
import { intakeMap } from '../../stages/intake/intake.js';
import { nameSubmission } from '../../stages/intake/intake-names.js';
import type { AppDeps } from '../deps.js';
import { bodyError } from '../errors.js';

/** POST /grade: one submission, graded now (or 503 with Retry-After when every slot and queue place is taken). */
export async function gradeRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.post('/grade', async (req) => {
    const parsed = GradeRequestSchema.safeParse(req.body);
    if (!parsed.success) throw bodyError(parsed.error.issues);
    const { rubric, expected } = deps.rubrics.get(parsed.data.rubric);
    const named = nameSubmission(parsed.data.id ?? 'submission');
    if (named.problem)
      throw new EvigradeError('INTAKE_PATH_INVALID', `submission "${named.id}": ${named.problem}`, {
        submission: named.id,
      });
    // Over HTTP a bad file map is a bad request (400/413 with the INTAKE_* code); in a batch it is a rejected report.
    const sub: Submission = intakeMap(named.id, parsed.data.files, rubric, named);
    // Served now or refused (503 QUEUE_FULL): the slot wraps the queue.
    const queue = {
      label: deps.ports.queue.label,
      grade: (j: Parameters<typeof deps.ports.queue.grade>[0]) => deps.slots.runNow(() => deps.ports.queue.grade(j)),
    };
    // Each request is its own scope: two identical requests are two jobs.
    return gradeSubmission(
      { submission: sub },
      rubric,
      expected,
      { ...deps.ports, queue },
      { scope: randomUUID(), interactive: true },
      { requestedBy: `api:${req.keyId ?? 'unknown'}` },
    );
  });
}
