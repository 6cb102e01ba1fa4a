/**
 * A URL as logs may show it: any password replaced by `***`. The raw URL is kept only to connect (Redis,
 * Postgres); every message and log line uses the redacted form, and an unparsable one is never echoed.
 */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unparsable URL)';
  }
}
