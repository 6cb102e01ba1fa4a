import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { EvigradeError } from '../../domain/errors.js';
import { overrideLatest } from '../../pipeline.js';
import type { AppDeps } from '../deps.js';
import { bodyError } from '../errors.js';

const Query = z
  .object({
    rubric: z.string().min(1).optional(),
    flag: z.string().min(1).optional(),
    flagged: z.enum(['true', 'false']).optional(),
  })
  .strict();

const OverrideBody = z
  .object({
    rubric: z.string().min(1),
    item: z.string().min(1),
    applies: z.boolean(),
    why: z.string().min(1).max(2000),
    /** Who decided; by default the API key that asks. */
    by: z.string().min(1).max(200).optional(),
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
  // An instructor's decision on a rubric item: the latest grading again with it, recorded as a new grading by
  // `override:<who>`; every later regrade of the submission reads it back (ports.overrides).
  app.post<{ Params: { id: string }; Body: unknown }>('/submissions/:id/overrides', async (req, reply) => {
    const b = OverrideBody.safeParse(req.body);
    if (!b.success) throw bodyError(b.error.issues);
    const by = b.data.by ?? `api:${req.keyId ?? 'unknown'}`;
    const decision = { item: b.data.item, applies: b.data.applies, by, why: b.data.why, at: new Date().toISOString() };
    const done = await overrideLatest(store(), b.data.rubric, req.params.id, decision);
    void reply.code(201);
    return done;
  });
  app.get<{ Querystring: unknown }>('/history', async (req) => {
    const q = Query.safeParse(req.query);
    if (!q.success) throw bodyError(q.error.issues);
    return {
      gradings: await store().list(narrowing(q.data)),
    };
  });
}
