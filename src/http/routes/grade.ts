import type { FastifyInstance } from 'fastify';
import { GradeRequestSchema } from '../../domain/api.js';
import type { Submission } from '../../domain/submission.js';
import { asEvigradeError, failedReport, gradeDeterministic, judgeReport } from '../../pipeline.js';
import { submissionFromMap } from '../../stages/intake-map.js';
import type { AppDeps } from '../app.js';
import { bodyError } from '../errors.js';

/** POST /grade: one submission, graded now (or 503 with Retry-After when every slot and queue place is taken). */
export async function gradeRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.post('/grade', async (req, reply) => {
    const parsed = GradeRequestSchema.safeParse(req.body);
    if (!parsed.success) throw bodyError(parsed.error.issues);
    const { rubric, expected } = deps.rubrics.get(parsed.data.rubric);
    const id = parsed.data.id ?? 'submission';
    let sub: Submission;
    try {
      sub = submissionFromMap(parsed.data.files, id, rubric.spec.limits);
    } catch (e) {
      // A bad submission is still a graded outcome: a rejected report, as in a batch.
      const empty: Submission = { id, files: [], ignored: [], sha256: '' };
      return reply.code(200).send(failedReport(empty, rubric, expected, asEvigradeError(e), { ...deps.ports, backend: deps.ports.sandbox.backend.id }));
    }
    const det = await deps.slots.runNow(() => gradeDeterministic(sub, rubric, expected, deps.ports));
    return judgeReport(det, sub, rubric, deps.ports);
  });
}
