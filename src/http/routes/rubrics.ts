import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { publicRubric } from '../../server/rubric-store.js';

/** Public rubric fields only: hidden tests, their names and references are never served. */
export async function rubricRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get('/rubrics', async () => ({ rubrics: deps.rubrics.list().map((r) => publicRubric(r.rubric, r.expected)) }));
  app.get<{ Params: { id: string } }>('/rubrics/:id', async (req) => {
    const r = deps.rubrics.get(req.params.id);
    return publicRubric(r.rubric, r.expected);
  });
}
