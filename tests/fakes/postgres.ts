// A real Postgres server (Debian's postgresql package) on loopback, in its own folder, run as the postgres
// user (Postgres refuses root). Null with the reason where it cannot run (no package, not root).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './redis.js';
import { missingTool } from './tools.js';

export interface PostgresServer {
  readonly url: string;
  stop(): Promise<void>;
}

function binDir(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const v = readdirSync(base).sort((a, b) => Number(b) - Number(a))[0];
  return v ? join(base, v, 'bin') : null;
}

function postgresUser(): { uid: number; gid: number } | null {
  const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  return r.status === 0 && g.status === 0 ? { uid: Number(r.stdout), gid: Number(g.stdout) } : null;
}

async function ready(url: string, proc: ChildProcess): Promise<void> {
  for (let i = 0; i < 200 && proc.exitCode === null; i++) {
    const c = new pg.Client({ connectionString: url });
    const ok = await c
      .connect()
      .then(() => c.end())
      .then(
        () => true,
        () => false,
      );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`postgres did not accept connections at ${url} (exit ${proc.exitCode})`);
}

export async function startPostgres(): Promise<PostgresServer | string> {
  const bin = binDir();
  const user = postgresUser();
  if (!bin) return missingTool('postgres') ?? 'no /usr/lib/postgresql/<version>/bin';
  if (!user || process.getuid?.() !== 0) return 'starting Postgres here needs root and the postgres user';
  const dir = mkdtempSync(join(tmpdir(), 'evigrade-pg-'));
  chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'evigrade', '--auth=trust', '-E', 'UTF8', '--locale=C'],
    { ...user, encoding: 'utf8' },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const proc = spawn(
    join(bin, 'postgres'),
    ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', dir, '-c', 'fsync=off'],
    { ...user, stdio: 'ignore' },
  );
  const url = `postgres://evigrade:not-a-secret@127.0.0.1:${port}/postgres`;
  await ready(url, proc);
  return {
    url,
    async stop() {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGINT'); // fast shutdown
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
