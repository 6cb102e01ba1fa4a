// One SQL interface over a real Postgres server (`pg`) and the embedded Postgres (PGlite) in a data folder:
// the same statements run on both. Each driver is loaded only when a store is opened.
import { mkdir } from 'node:fs/promises';
import { EvigradeError } from '../../domain/errors.js';
import { redactUrl } from '../../util/url.js';

export interface Sql {
  /** Where the store is, safe to print (a server URL has its password redacted). */
  readonly label: string;
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
  /** Runs `fn` in one transaction; statements in it see one snapshot and commit together. */
  transaction<T>(fn: (sql: Pick<Sql, 'query' | 'exec'>) => Promise<T>): Promise<T>;
  /**
   * Calls `fn` with each NOTIFY payload on `channel` (from any process on a server; this one on PGlite); resolves
   * with the unlisten. `reconnected` runs when a broken listening connection is back: what was sent meanwhile is lost.
   */
  listen(channel: string, fn: (payload: string) => void, reconnected?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const isServerUrl = (where: string): boolean => /^postgres(ql)?:\/\//.test(where);

/** A `postgres://` URL opens a connection pool to that server; anything else is a folder for the embedded Postgres. */
export async function openSql(where: string): Promise<Sql> {
  return isServerUrl(where) ? openServer(where) : openEmbedded(where);
}

async function openServer(url: string): Promise<Sql> {
  const { default: pg } = await import('pg');
  const label = redactUrl(url);
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => undefined); // an idle client's broken connection; the next query reports it
  try {
    await pool.query('select 1');
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw new EvigradeError('STORE_UNAVAILABLE', `cannot reach the database at ${label}: ${(e as Error).message}`);
  }
  const query = async <T = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<T[]> =>
    (await pool.query(text, [...params])).rows as T[];
  return {
    label,
    query,
    exec: async (text) => void (await pool.query(text)),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const out = await fn({
          query: async (text, params = []) => (await client.query(text, [...params])).rows as never,
          exec: async (text) => void (await client.query(text)),
        });
        await client.query('commit');
        return out;
      } catch (e) {
        await client.query('rollback').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    listen: (channel, fn, reconnected) => listenOn(url, label, channel, fn, reconnected),
    close: () => pool.end(),
  };
}

/**
 * A connection of its own that LISTENs (a pooled one would be handed back and stop hearing); when it breaks,
 * it connects again, so a database restart costs the notifications sent meanwhile, never the listener.
 */
async function listenOn(
  url: string,
  label: string,
  channel: string,
  fn: (payload: string) => void,
  reconnected: () => void = () => undefined,
): Promise<() => Promise<void>> {
  const { default: pg } = await import('pg');
  let client: InstanceType<typeof pg.Client> | null = null;
  let stopped = false;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (n) => n.channel === channel && fn(n.payload ?? ''));
    c.on('error', () => {
      c.end().catch(() => undefined);
      if (!stopped) setTimeout(() => void connect().then(reconnected, () => undefined), 1000).unref();
    });
    await c.connect();
    await c.query(`listen ${pgIdent(channel)}`);
    client = c;
  };
  await connect().catch((e: unknown) => {
    throw new EvigradeError('STORE_UNAVAILABLE', `cannot listen on ${label}: ${(e as Error).message}`);
  });
  return async () => {
    stopped = true;
    await client?.end().catch(() => undefined);
  };
}

/** Channel names are ours (constants), quoted anyway. */
const pgIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

async function openEmbedded(dir: string): Promise<Sql> {
  const { PGlite } = await import('@electric-sql/pglite');
  await mkdir(dir, { recursive: true });
  let db: InstanceType<typeof PGlite>;
  try {
    db = new PGlite(dir);
    await db.waitReady;
  } catch (e) {
    throw new EvigradeError(
      'STORE_UNAVAILABLE',
      `cannot open the embedded database in ${dir}: ${(e as Error).message}`,
    );
  }
  return {
    label: dir,
    query: async (text, params = []) => (await db.query(text, [...params])).rows as never,
    exec: async (text) => void (await db.exec(text)),
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          query: async (text, params = []) => (await tx.query(text, [...params])).rows as never,
          exec: async (text) => void (await tx.exec(text)),
        }),
      ),
    listen: async (channel, fn) => {
      const unlisten = await db.listen(channel, fn);
      return () => unlisten();
    },
    close: () => db.close(),
  };
}
