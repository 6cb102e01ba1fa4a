import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { EvigradeError } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { bodyError } from '../errors.js';

const Query = z
  .object({
    rubric: z.string().min(1).optional(),
    flag: z.string().min(1).optional(),
    flagged: z.enum(['true', 'false']).optional(),
  })
  .strict();

/** The narrowing a query asks for: a rubric, a flag code, any flag. */
const narrowing = (q: z.infer<typeof Query>) => ({
  ...(q.rubric ? { rubricId: q.rubric } : {}),
  ...(q.flag ? { flag: q.flag } : {}),
  ...(q.flagged === 'true' ? { flagged: true } : {}),
});

/** The grading history (when the server records one): a submission's gradings, or every grading of a rubric, carrying a flag code, or flagged at all. */
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
      gradings: await store().list({ submissionId: req.params.id, ...narrowing(q.data) }),
    };
  });
  app.get<{ Querystring: unknown }>('/history', async (req) => {
    const q = Query.safeParse(req.query);
    if (!q.success) throw bodyError(q.error.issues);
    return {
      gradings: await store().list(narrowing(q.data)),
    };
  });
}
