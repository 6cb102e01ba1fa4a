import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { EvigradeError } from '../../domain/errors.js';
import type { AppDeps } from '../app.js';
import { bodyError } from '../errors.js';

const Query = z.object({ rubric: z.string().min(1).optional(), flag: z.string().min(1).optional() }).strict();

/** The grading history (when the server records one): a submission's gradings, or every grading of a rubric or carrying a flag. */
export async function historyRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const store = (): NonNullable<AppDeps['history']> => {
    if (!deps.history)
      throw new EvigradeError('NOT_FOUND', 'this server records no grading history (start it with --db)');
    return deps.history;
  };
  app.get<{ Params: { id: string }; Querystring: unknown }>('/submissions/:id/history', async (req) => {
    const q = Query.safeParse(req.query);
    if (!q.success) throw bodyError(q.error.issues);
    return {
      gradings: await store().list({
        submissionId: req.params.id,
        ...(q.data.rubric ? { rubricId: q.data.rubric } : {}),
        ...(q.data.flag ? { flag: q.data.flag } : {}),
      }),
    };
  });
  app.get<{ Querystring: unknown }>('/history', async (req) => {
    const q = Query.safeParse(req.query);
    if (!q.success) throw bodyError(q.error.issues);
    return {
      gradings: await store().list({
        ...(q.data.rubric ? { rubricId: q.data.rubric } : {}),
        ...(q.data.flag ? { flag: q.data.flag } : {}),
      }),
    };
  });
}
