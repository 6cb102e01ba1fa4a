import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { EvigradeError } from '../domain/errors.js';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Bearer API keys, compared in constant time (over their hashes, so lengths do not leak either). */
export function createAuth(keys: readonly string[]) {
  const known = keys.map(digest);
  return {
    /** Returns a non-secret id for the key (used for rate limiting and logs). */
    check(req: FastifyRequest): string {
      const h = req.headers.authorization;
      const m = typeof h === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
      if (!m) throw new EvigradeError('AUTH_MISSING', 'send "Authorization: Bearer <API key>"');
      const d = digest(m[1] as string);
      if (!known.some((k) => timingSafeEqual(k, d)))
        throw new EvigradeError('AUTH_INVALID', 'the API key is not valid');
      return d.toString('hex').slice(0, 12);
    },
  };
}
