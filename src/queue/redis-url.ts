import { EvigradeError } from '../domain/errors.js';

/**
 * A Redis URL as logs may show it: any password replaced by `***`. The raw
 * URL is kept only to connect; every message and log line uses `redacted`.
 */
export interface RedisTarget {
  readonly url: string;
  readonly redacted: string;
}

export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

export function redisTarget(raw: string, where: string): RedisTarget {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // Never echo the text: it may hold a password.
    throw new EvigradeError('USAGE', `${where}: the queue URL is not a valid URL (expected redis://[user:password@]host:port[/db])`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new EvigradeError('USAGE', `${where}: the queue URL must start with redis:// or rediss://, got ${u.protocol}//`);
  if (!u.hostname) throw new EvigradeError('USAGE', `${where}: the queue URL ${redactUrl(raw)} names no host`);
  return { url: raw, redacted: redactUrl(raw) };
}
