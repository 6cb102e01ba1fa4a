import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import sjson from 'secure-json-parse';
import { EvigradeError } from '../domain/errors.js';
import { createAuth } from './auth.js';
import type { AppDeps } from './deps.js';
import { errorHandler, sendError } from './errors.js';
import { batchRoutes } from './routes/batches.js';
import { gradeRoutes } from './routes/grade.js';
import { historyRoutes } from './routes/history.js';
import { healthRoutes } from './routes/health.js';
import { openapiRoutes } from './routes/openapi.js';
import { rubricRoutes } from './routes/rubrics.js';
import { auditRoutes } from './routes/audits.js';

const OPEN_ROUTES = new Set(['/healthz', '/readyz', '/openapi.json']);

declare module 'fastify' {
  interface FastifyRequest {
    keyId?: string;
  }
}

/** Builds the service without listening (tests use inject; `serve` listens). */
export async function buildApp(deps: AppDeps) {
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger as FastifyBaseLogger } : { logger: false }),
    bodyLimit: deps.bodyLimit ?? 2 * 1024 * 1024,
    genReqId: () => randomBytes(6).toString('hex'),
    requestIdHeader: false,
  });
  app.setErrorHandler(errorHandler);
  // JSON bodies must be valid UTF-8 (no silent U+FFFD) and free of prototype keys.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body as Buffer);
    } catch {
      return done(new EvigradeError('BODY_INVALID', 'the body is not valid UTF-8'), undefined);
    }
    try {
      done(null, sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (e) {
      done(new EvigradeError('BODY_INVALID', `the body is not valid JSON: ${(e as Error).message}`), undefined);
    }
  });
  app.setNotFoundHandler((req, reply) =>
    sendError(reply, new EvigradeError('NOT_FOUND', `no route ${req.method} ${req.url.split('?')[0]}`)),
  );

  const auth = createAuth(deps.apiKeys);
  app.addHook('onRequest', async (req: FastifyRequest) => {
    if (OPEN_ROUTES.has(req.url.split('?')[0] as string)) return;
    req.keyId = auth.check(req);
  });
  await app.register(rateLimit, {
    max: deps.ratePerMinute,
    timeWindow: 60_000,
    keyGenerator: (req) => req.keyId ?? req.ip,
    allowList: (req) => OPEN_ROUTES.has(req.url.split('?')[0] as string),
    errorResponseBuilder: (_req, ctx) => {
      const e = new EvigradeError('RATE_LIMITED', `more than ${ctx.max} requests per minute for this API key`, {
        retryAfter: Math.ceil(ctx.ttl / 1000),
      });
      return Object.assign(e, { statusCode: 429 });
    },
  });

  await app.register(healthRoutes, deps);
  await app.register(openapiRoutes);
  await app.register(rubricRoutes, deps);
  await app.register(auditRoutes, deps);
  await app.register(gradeRoutes, deps);
  await app.register(batchRoutes, deps);
  await app.register(historyRoutes, deps);
  return app;
}
