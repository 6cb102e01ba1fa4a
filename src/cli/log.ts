import { pino, type Logger } from 'pino';
import type { LogFormat } from './args.js';

/** pino's numeric levels, as a person reads them. */
const LEVEL_NAMES: Record<number, string> = { 40: 'warning', 50: 'error', 60: 'fatal' };

/** One pino JSON line as one line of text: `evigrade: warning: <msg> (key=value, …)`. */
export function humanLine(json: string): string {
  try {
    const o = JSON.parse(json) as Record<string, unknown>;
    const { level, msg, time: _t, pid: _p, hostname: _h, cmd: _c, ...rest } = o;
    const detail = Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
    const name = LEVEL_NAMES[Number(level)] ?? 'info';
    return `evigrade: ${name}: ${String(msg ?? '')}${detail.length ? ` (${detail.join(', ')})` : ''}\n`;
  } catch {
    return json;
  }
}

/**
 * A command's logger. `--log json`: every info line as JSON on stderr, for machines. Otherwise only warnings and
 * errors, as plain lines on stderr (a person must still read "no sandbox" or "queue connection lost"); the progress
 * bar and the end-of-run summary say the rest.
 */
export function cliLogger(cmd: string, format: LogFormat | null): Logger {
  if (format === 'json') return pino({ base: { cmd } }, pino.destination(2));
  return pino({ base: { cmd }, level: 'warn' }, { write: (line: string) => process.stderr.write(humanLine(line)) });
}
