// Real services for benches, on loopback in their own folders: redis-server, and Debian's Postgres (run as the
// postgres user; null where that cannot run: no package, not root).
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function until(ok, what) {
  for (let i = 0; i < 200; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start`);
}

export async function startRedis() {
  const { Redis } = await import('ioredis');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'evigrade-bench-redis-'));
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  await until(async () => {
    const c = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    c.on('error', () => undefined);
    const ok = await c.connect().then(
      () => true,
      () => false,
    );
    c.disconnect();
    return ok;
  }, 'redis-server');
  return {
    url,
    // Resolves once the server is gone and its folder removed (a bench that exits right after still leaves nothing).
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null)
          return resolve(rmSync(dir, { recursive: true, force: true }));
        proc.once('exit', () => resolve(rmSync(dir, { recursive: true, force: true })));
        proc.kill('SIGTERM');
      }),
  };
}

export async function startPostgres() {
  const base = '/usr/lib/postgresql';
  const v = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a))[0] : null;
  const id = (flag) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  if (!v || process.getuid?.() !== 0 || id('-u').status !== 0) return null;
  const user = { uid: Number(id('-u').stdout), gid: Number(id('-g').stdout) };
  const bin = join(base, v, 'bin');
  const dir = mkdtempSync(join(tmpdir(), 'evigrade-bench-pg-'));
  chownSync(dir, user.uid, user.gid);
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', join(dir, 'data'), '-U', 'evigrade', '--auth=trust', '-E', 'UTF8', '--locale=C'],
    { ...user, encoding: 'utf8' },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const proc = spawn(
    join(bin, 'postgres'),
    ['-D', join(dir, 'data'), '-p', String(port), '-h', '127.0.0.1', '-k', dir, '-c', 'fsync=off'],
    { ...user, stdio: 'ignore' },
  );
  const url = `postgres://evigrade@127.0.0.1:${port}/postgres`;
  const { default: pg } = await import('pg');
  await until(async () => {
    const c = new pg.Client({ connectionString: url });
    return c
      .connect()
      .then(() => c.end())
      .then(
        () => true,
        () => false,
      );
  }, 'postgres');
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        proc.once('exit', () => resolve(rmSync(dir, { recursive: true, force: true })));
        proc.kill('SIGINT');
      }),
  };
}
