import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';

export async function healthRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get('/healthz', async () => ({ ok: true }));
  /** Ready when a sandbox that isolates is open and the server is not draining; says what the judge is. */
  app.get('/readyz', async (_req, reply) => {
    const slots = deps.slots.stats();
    const sandbox = { backend: deps.ports.sandbox.backend.id, isolates: deps.ports.sandbox.backend.isolates };
    const ready = !slots.draining && sandbox.isolates;
    return reply.code(ready ? 200 : 503).send({ ready, sandbox, queue: slots, judge: deps.judgeInfo(), rubrics: deps.rubrics.list().length });
  });
}
