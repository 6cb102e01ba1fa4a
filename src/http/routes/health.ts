import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';

export async function healthRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get('/healthz', async () => ({ ok: true }));
  /** Ready when jobs can be graded (an isolating sandbox here, or a reachable queue) and the server is not draining. */
  app.get('/readyz', async (_req, reply) => {
    const slots = deps.slots.stats();
    const grading = await deps.ports.queue.health();
    const ready = !slots.draining && grading.ready;
    return reply
      .code(ready ? 200 : 503)
      .send({ ready, grading, slots, judge: deps.judgeInfo(), rubrics: deps.rubrics.list().length });
  });
}
