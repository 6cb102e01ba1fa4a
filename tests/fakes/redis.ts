// A real redis-server (Debian's package) on loopback, one per test file, in its own folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { requireTool } from './tools.js';

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  readonly dir: string;
  /** Stops the server (SIGTERM: with appendonly it keeps its data) and starts it again on the same port. */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function ready(port: number, proc: ChildProcess, password?: string): Promise<void> {
  for (let i = 0; i < 100 && proc.exitCode === null && proc.signalCode === null; i++) {
    const c = new Redis({
      port,
      host: '127.0.0.1',
      password,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    c.on('error', () => undefined);
    const ok = await c
      .connect()
      .then(() => c.ping())
      .then(
        () => true,
        () => false,
      );
    c.disconnect();
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  const exited = proc.exitCode ?? proc.signalCode;
  throw new Error(
    `redis-server ${exited === null ? 'did not answer' : `exited (${exited}) before answering`} on port ${port}`,
  );
}

/** `anyAddress`: listen on every interface (so a job could try the host's own addresses); always with a password then. */
export async function startRedis(
  opts: { password?: string; persist?: boolean; anyAddress?: boolean } = {},
): Promise<RedisServer> {
  requireTool('redis-server');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'evigrade-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    opts.anyAddress ? '0.0.0.0' : '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    opts.persist ? 'yes' : 'no',
    '--appendfsync',
    'always',
  ];
  if (opts.password) args.push('--requirepass', opts.password);
  let proc: ChildProcess;
  const start = async (): Promise<void> => {
    proc = spawn('redis-server', args, { stdio: 'ignore' });
    proc.on('error', () => undefined); // a failed start shows as the exit ready() reports
    await ready(port, proc, opts.password);
  };
  const stop = async (): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  };
  await start();
  const auth = opts.password ? `:${opts.password}@` : '';
  return {
    port,
    dir,
    url: `redis://${auth}127.0.0.1:${port}`,
    async restart(downMs = 500) {
      await stop();
      await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    stop,
  };
}
