// `evigrade worker` as a real child process, with its pino log lines parsed as they arrive.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ConfigSchema } from '../../src/domain/config.js';
import type { QueueSettings } from '../../src/queue/bull.js';
import { ROOT } from '../helpers.js';

export const BIN = join(ROOT, 'bin', 'evigrade.js');

/** The queue tests' rubric and submissions: correct, or correct after `ms` of busy work at load (long enough to be caught mid-job). */
export const LEAP = join(ROOT, 'rubrics', 'leap', 'rubric.yaml');
export const LEAP_CORRECT = 'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n';
export const slowLeap = (ms: number): string => `const t = Date.now(); while (Date.now() - t < ${ms}); ${LEAP_CORRECT}`;

/** Fast failure detection for tests: a 2 s lock, checked every second; a lost queue is an error after 30 s. */
export const testQueueSettings = (url: string, name: string, over: Partial<QueueSettings> = {}): QueueSettings => ({
  ...ConfigSchema.parse({}).queue,
  url,
  name,
  lock_ms: 2000,
  stalled_interval_ms: 1000,
  unavailable_ms: 30_000,
  ...over,
});

export type LogLine = Record<string, unknown> & { msg?: string };

export interface Proc {
  readonly child: ChildProcess;
  readonly lines: LogLine[];
  /** Everything the process wrote to stderr, raw. */
  stderr(): string;
  /** Resolves with the first log line matching, waiting up to `ms`. */
  until(pred: (l: LogLine) => boolean, ms?: number): Promise<LogLine>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A config file holding only queue settings (the URL stays on the command line). */
export function queueConfig(queue: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'evigrade-qcfg-'));
  const file = join(dir, 'evigrade.config.yaml');
  writeFileSync(file, stringify({ queue }));
  return file;
}

const spawned = new Set<ChildProcess>();

/** SIGKILLs every process a test started and did not stop (a failed assertion skips its own cleanup). */
export function killStragglers(): void {
  for (const c of spawned) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  spawned.clear();
}

/** The settings as a config file (the URL goes on the command line, as an operator would pass it). */
export const configFileOf = ({ url: _u, ...queue }: QueueSettings): string => queueConfig(queue);

export function spawnWorker(s: QueueSettings, backend: string, concurrency = 1, url = s.url): Proc {
  return spawnEvigrade([
    'worker',
    '--queue',
    url,
    '--concurrency',
    String(concurrency),
    '--sandbox',
    backend,
    '--config',
    configFileOf(s),
  ]);
}

export function spawnEvigrade(args: string[], env: NodeJS.ProcessEnv = {}): Proc {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: 'true', ...env },
  });
  spawned.add(child);
  const lines: LogLine[] = [];
  let raw = '';
  let partial = '';
  const waiters: { pred: (l: LogLine) => boolean; resolve: (l: LogLine) => void }[] = [];
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    raw += chunk;
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    for (const text of parts) {
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        line = { msg: text };
      }
      lines.push(line);
      for (const w of waiters.filter((x) => x.pred(line))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  child.stdout?.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    lines,
    exited,
    stderr: () => raw,
    until(pred, ms = 60_000) {
      const found = lines.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const t = setTimeout(
          () =>
            reject(
              new Error(`no matching log line within ${ms} ms; last lines:\n${raw.split('\n').slice(-8).join('\n')}`),
            ),
          ms,
        );
        waiters.push({
          pred,
          resolve: (l) => {
            clearTimeout(t);
            resolve(l);
          },
        });
      });
    },
  };
}

export const doneJobs = (p: Proc, kind = 'grade'): LogLine[] =>
  p.lines.filter((l) => l.msg === 'job done' && l.kind === kind);
export const startedJobs = (p: Proc, kind = 'grade'): LogLine[] =>
  p.lines.filter((l) => l.msg === 'job started' && l.kind === kind);

/** Kills the process (default SIGKILL) and waits for it to be gone. */
export async function kill(
  p: Proc,
  signal: NodeJS.Signals = 'SIGKILL',
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
  return p.exited;
}
