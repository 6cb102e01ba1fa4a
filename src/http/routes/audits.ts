import type { FastifyInstance } from 'fastify';
import { EvigradeError } from '../../domain/errors.js';
import type { AuditEvent, AuditService } from '../../server/audits.js';
import type { AppDeps } from '../deps.js';

type IdParams = { Params: { id: string } };

const service = (deps: AppDeps): AuditService => {
  if (!deps.audits) throw new EvigradeError('NOT_FOUND', 'this server does not run rubric audits');
  return deps.audits;
};

/** POST /rubrics/{id}/audit runs `evigrade audit` as a job; its progress streams as server-sent events. */
export async function auditRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.post<IdParams>('/rubrics/:id/audit', async (req, reply) => {
    if (deps.slots.stats().draining)
      throw new EvigradeError('SHUTTING_DOWN', 'the server is shutting down and starts no audit');
    const status = service(deps).create(req.params.id);
    return reply.code(202).header('location', `/audits/${status.id}`).send(status);
  });
  app.get<IdParams>('/audits/:id', async (req) => service(deps).status(req.params.id));
  // 200 with audit.json once done; 202 with the status while it runs; the audit's own error if it failed.
  app.get<IdParams>('/audits/:id/result', async (req, reply) => {
    const report = service(deps).result(req.params.id);
    return report ?? reply.code(202).send(service(deps).status(req.params.id));
  });

  /** Server-sent events: the current progress at once, one `progress` per step, then `done` or `failed`. */
  app.get<IdParams>('/audits/:id/events', async (req, reply) => {
    const audits = service(deps);
    // Subscribed before the status is read: an end in between is in the status or in what arrives.
    let forward: ((e: AuditEvent) => void) | null = null;
    const early: AuditEvent[] = [];
    const stop = audits.subscribe(req.params.id, (e) => (forward ? forward(e) : early.push(e)));
    const status = audits.status(req.params.id);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (event: string, data: unknown): boolean =>
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    send('progress', status.progress);
    let ended = false;
    const end = (e: AuditEvent): void => {
      if (ended) return;
      const { type, ...data } = e;
      send(type, data);
      if (type === 'progress') return;
      ended = true;
      stop();
      res.end();
    };
    if (status.state !== 'running') {
      end(
        status.state === 'done'
          ? { type: 'done', score: status.score ?? null, counts: status.counts! }
          : { type: 'failed', code: status.error?.code ?? 'INTERNAL', message: status.error?.message ?? '' },
      );
      return;
    }
    forward = end;
    for (const e of early) end(e);
    res.on('close', stop);
  });
}
