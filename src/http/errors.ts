import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ERROR_TABLE, EvigradeError, isEvigradeError } from '../domain/errors.js';

/** `{ error: { code, message, details? } }` with the status from the one error table. */
export function sendError(reply: FastifyReply, err: EvigradeError): FastifyReply {
  const retry = err.details.retryAfter;
  if (typeof retry === 'number') void reply.header('retry-after', String(retry));
  const details = Object.keys(err.details).length ? { details: err.details } : {};
  return reply.code(ERROR_TABLE[err.code].http).send({ error: { code: err.code, message: err.message, ...details } });
}

/** A zod failure as BODY_INVALID naming every field path. */
export function bodyError(issues: readonly z.core.$ZodIssue[]): EvigradeError {
  const fields = issues
    .slice(0, 20)
    .map((i) => ({ path: i.path.length ? i.path.map(String).join('.') : '(body)', message: i.message }));
  return new EvigradeError('BODY_INVALID', fields.map((f) => `${f.path}: ${f.message}`).join('; '), { fields });
}

/** Fastify's own errors (bad JSON, body too large…) mapped onto our table; anything else is INTERNAL. */
export function errorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (isEvigradeError(error)) return sendError(reply, error);
  const fe = error as FastifyError;
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return sendError(reply, new EvigradeError('BODY_TOO_LARGE', fe.message));
  if (fe.statusCode === 429)
    return sendError(
      reply,
      new EvigradeError('RATE_LIMITED', fe.message, { retryAfter: Number(reply.getHeader('retry-after') ?? 60) }),
    );
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return sendError(reply, new EvigradeError('BODY_INVALID', `${fe.message}`));
  }
  request.log.error({ err: error }, 'unexpected error');
  return sendError(
    reply,
    new EvigradeError('INTERNAL', 'an unexpected internal error; the server log has the details'),
  );
}
