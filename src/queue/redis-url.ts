import { EvigradeError } from '../domain/errors.js';
import { redactUrl } from '../util/url.js';

/**
 * A Redis URL to connect with, and as logs may show it (`redacted`, util/url.ts).
 */
export interface RedisTarget {
  readonly url: string;
  readonly redacted: string;
}

export function redisTarget(raw: string, where: string): RedisTarget {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // Never echo the text: it may hold a password.
    throw new EvigradeError(
      'USAGE',
      `${where}: the queue URL is not a valid URL (expected redis://[user:password@]host:port[/db])`,
    );
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    throw new EvigradeError(
      'USAGE',
      `${where}: the queue URL must start with redis:// or rediss://, got ${u.protocol}//`,
    );
  if (!u.hostname) throw new EvigradeError('USAGE', `${where}: the queue URL ${redactUrl(raw)} names no host`);
  return { url: raw, redacted: redactUrl(raw) };
}
