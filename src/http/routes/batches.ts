import type { FastifyInstance } from 'fastify';
import { BatchRequestSchema } from '../../domain/api.js';
import { EvigradeError } from '../../domain/errors.js';
import type { AppDeps } from '../app.js';
import { bodyError } from '../errors.js';

type IdParams = { Params: { id: string } };

export async function batchRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.post('/batches', { bodyLimit: deps.batchBodyLimit ?? 64 * 1024 * 1024 }, async (req, reply) => {
    if (deps.slots.stats().draining) throw new EvigradeError('SHUTTING_DOWN', 'the server is shutting down and takes no new batches');
    const parsed = BatchRequestSchema.safeParse(req.body);
    if (!parsed.success) throw bodyError(parsed.error.issues);
    const status = await deps.batches.create(parsed.data);
    return reply.code(202).header('location', `/batches/${status.id}`).send(status);
  });
  app.get<IdParams>('/batches/:id', async (req) => deps.batches.status(req.params.id));
  app.get<IdParams>('/batches/:id/summary', async (req) => deps.batches.summary(req.params.id));
  app.get<{ Params: { id: string; submission: string } }>('/batches/:id/reports/:submission', async (req) => deps.batches.report(req.params.id, req.params.submission));

  /** Server-sent events: the current progress at once, one event per finished submission, then `done`. */
  app.get<IdParams>('/batches/:id/events', async (req, reply) => {
    const status = await deps.batches.status(req.params.id);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (event: string, data: unknown): boolean => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    send('progress', { done: status.done, total: status.total });
    if (status.state === 'done') {
      send('done', { done: status.done, total: status.total });
      res.end();
      return;
    }
    const stop = deps.batches.subscribe(req.params.id, (e) => {
      send(e.type, e);
      if (e.type === 'done') {
        stop();
        res.end();
      }
    });
    res.on('close', stop);
  });
}
