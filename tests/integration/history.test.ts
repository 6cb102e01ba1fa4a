// The grading history in a real database: embedded Postgres (PGlite) in a folder, and a real Postgres server.
// Every grading is a new row; regrades never overwrite; the hash chain detects an edited or removed row.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { batchesOver } from '../../src/adapters/store/batches.js';
import { openHistory, openMigrated } from '../../src/adapters/store/history.js';
import { openSql } from '../../src/adapters/store/sql.js';
import { EvigradeError } from '../../src/domain/errors.js';
import { startPostgres, type PostgresServer } from '../fakes/postgres.js';
import { createSlots } from '../../src/server/slots.js';
import { createStoredBatchService } from '../../src/server/stored-batches.js';
import { leapService, ROOT } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'evigrade.js');
const LEAP = join(ROOT, 'rubrics', 'leap', 'rubric.yaml');
const cli = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { timeout: 180_000, env: { ...process.env, CI: 'true', HF_TOKEN: '' } },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

let server: PostgresServer;
beforeAll(async () => {
  const s = await startPostgres();
  if (typeof s === 'string') throw new Error(s); // CI installs postgresql and runs as root
  server = s;
}, 120_000);
afterAll(async () => server?.stop());

const stores: Record<string, () => string> = {
  embedded: () => join(mkdtempSync(join(tmpdir(), 'evigrade-hist-')), 'db'),
  postgres: () => server.url.replace('/postgres', `/h${Math.random().toString(36).slice(2, 8)}`),
};

/** A fresh database on the server (the URL names one that does not exist yet). */
async function fresh(kind: string): Promise<string> {
  const where = stores[kind]?.() as string;
  if (kind === 'postgres') {
    const admin = await openSql(server.url);
    await admin.exec(`create database ${new URL(where).pathname.slice(1)}`);
    await admin.close();
  }
  return where;
}

describe.each(Object.keys(stores))('grading history (%s)', (kind) => {
  it('grade --db appends every grading (a regrade never overwrites); history lists, diffs and verifies them', async () => {
    const where = await fresh(kind);
    const subs = mkdtempSync(join(tmpdir(), 'evigrade-hsubs-'));
    mkdirSync(join(subs, 'ada'));
    writeFileSync(join(subs, 'ada', 'leap.js'), 'export const isLeap = (y) => y % 4 === 0;\n');
    writeFileSync(
      join(subs, 'bo.js'),
      'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n',
    );
    const out = join(subs, '..', `${subs.split('/').pop()}-out`);
    const first = await cli(['grade', subs, '--rubric', LEAP, '--out', out, '--no-llm', '--db', where]);
    expect(first.code, first.stderr).toBe(0);
    const adaFirst = JSON.parse(readFileSync(join(out, 'ada.json'), 'utf8')) as { scores: { final: number } };
    writeFileSync(
      join(subs, 'ada', 'leap.js'),
      'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n',
    );
    const again = await cli(['grade', subs, '--rubric', LEAP, '--out', out, '--no-llm', '--db', where]);
    expect(again.code, again.stderr).toBe(0);

    const list = await cli(['history', '--db', where, '--rubric', 'leap']);
    const rows = list.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/));
    // ada twice (changed), bo once (its report was kept, not regraded); ids follow completion order.
    expect(rows.map((r) => [r[2], r[3], r[4]])).toEqual([
      ['leap/ada', 'graded', String(adaFirst.scores.final)],
      ['leap/ada', 'graded', '10'],
      ['leap/bo', 'graded', '10'],
    ]);
    const [before, after] = rows.slice(0, 2).map((r) => (r[0] as string).slice(1));
    const diff = await cli(['history', '--db', where, '--diff', before as string, '--diff', after as string]);
    expect(diff.stdout).toContain(
      'test "A leap year > year divisible by 100, not divisible by 400 in common year": failed -> passed',
    );
    expect(diff.stdout).toContain(`final: ${adaFirst.scores.final} -> 10`);
    const verified = await cli(['history', '--db', where, '--verify']);
    expect([verified.code, verified.stdout.trim().endsWith('3 grading(s) verified; every chain is intact')]).toEqual([
      0,
      true,
    ]);
  }, 300_000);

  it('is append-only, and an edited report or a removed grading is named by verify', async () => {
    const where = await fresh(kind);
    const subs = mkdtempSync(join(tmpdir(), 'evigrade-hsubs-'));
    writeFileSync(join(subs, 'cy.js'), 'export const isLeap = () => false;\n');
    const out = `${subs}-out`;
    for (let i = 0; i < 3; i++)
      expect(
        (await cli(['grade', subs, '--rubric', LEAP, '--out', out, '--no-llm', '--force', '--db', where])).code,
      ).toBe(0);
    const sql = await openSql(where);
    try {
      const blocked = await sql.query('update evigrade_gradings set final = 10 where id = 1').then(
        () => 'updated',
        (e: Error) => e.message,
      );
      expect(blocked).toContain('append-only');
      // Someone with the owner's rights goes around the trigger: the chain still tells.
      await sql.exec('alter table evigrade_gradings disable trigger evigrade_gradings_append_only');
      await sql.exec("update evigrade_gradings set report = jsonb_set(report, '{scores,final}', '10') where id = 1");
      await sql.exec('delete from evigrade_gradings where id = 2');
    } finally {
      await sql.close();
    }
    const v = await cli(['verify', '--history', '--db', where]);
    expect([v.code, v.stderr.split('\n').filter((l) => l.startsWith('  #'))]).toEqual([
      6,
      [
        '  #1 leap/cy: the stored report does not match its hash (edited)',
        '  #3 leap/cy: the previous grading it chains to is not the one before it (a grading was removed or reordered)',
      ],
    ]);
  }, 300_000);

  it('refuses a schema newer than it knows, and names an unreachable database without its password', async () => {
    const where = await fresh(kind);
    await openHistory(where).then((s) => s.close());
    const sql = await openSql(where);
    await sql.exec('insert into evigrade_schema (version) values (99)');
    await sql.close();
    const err = await openHistory(where).catch((e: unknown) => e as EvigradeError);
    expect([
      err instanceof EvigradeError && err.code,
      (err as Error).message.includes('the history schema is version 99, newer than this evigrade knows (3)'),
    ]).toEqual(['STORE_SCHEMA', true]);
    if (kind === 'postgres') {
      const gone = await cli(['history', '--db', 'postgres://u:hunter2-secret@127.0.0.1:1/x']);
      expect([
        gone.code,
        gone.stderr.startsWith(
          'evigrade: error STORE_UNAVAILABLE: cannot reach the database at postgres://u:***@127.0.0.1:1/x',
        ),
        gone.stderr.includes('hunter2'),
      ]).toEqual([4, true, false]);
    }
  }, 120_000);
});

const files = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((n) => [n, readFileSync(join(dir, n), 'utf8')]),
  );

// A batch recorded in the store (grade --db) comes back as the CLI's own files, byte for byte; verify passes on them.
describe('history --export (embedded Postgres)', () => {
  it('gives back a grade --db run as its files, byte for byte, and verify passes on them', async () => {
    const base = mkdtempSync(join(tmpdir(), 'evigrade-export-'));
    const [subs, out, back, db] = ['subs', 'out', 'back', 'db'].map((d) => join(base, d)) as [
      string,
      string,
      string,
      string,
    ];
    mkdirSync(join(subs, 'ada'), { recursive: true });
    writeFileSync(join(subs, 'ada', 'leap.js'), 'export const isLeap = (y) => y % 4 === 0;\n');
    writeFileSync(
      join(subs, 'bo.js'),
      'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n',
    );
    // Rejected at intake: still a report, and exported like the others.
    mkdirSync(join(subs, 'cy'));
    writeFileSync(join(subs, 'cy', 'leap.exe'), 'MZ');
    const graded = await cli(['grade', subs, '--rubric', LEAP, '--out', out, '--no-llm', '--db', db]);
    expect(graded.code, graded.stderr).toBe(0);
    const batch = graded.stderr
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg?: string; batch?: string })
      .find((l) => l.msg === 'batch recorded in the store')?.batch;
    expect(batch).toMatch(/^cli-[0-9a-f]{16}$/);

    const listed = await cli(['history', '--db', db, '--batches']);
    expect(listed.stdout).toContain(`${batch as string}  `);
    const exported = await cli(['history', '--db', db, '--export', batch as string, '--out', back]);
    expect([exported.code, exported.stdout.trim()]).toEqual([0, `3 report(s), summary.json and grades.csv -> ${back}`]);
    const [want, got] = [files(out), files(back)];
    expect(Object.keys(got)).toEqual(['ada.json', 'bo.json', 'cy.json', 'grades.csv', 'summary.json']);
    expect(got).toEqual(want);
    expect((JSON.parse(got['cy.json'] as string) as { status: string }).status).toBe('rejected');
    for (const r of ['ada.json', 'bo.json', 'cy.json']) {
      const v = await cli(['verify', join(back, r)]);
      expect([r, v.code], v.stdout + v.stderr).toEqual([r, 0]);
    }

    const missing = await cli(['history', '--db', db, '--export', 'cli-0000000000000000', '--out', join(base, 'none')]);
    expect([missing.code, missing.stderr.trim()]).toEqual([
      2,
      `evigrade: error NOT_FOUND: history: no batch "cli-0000000000000000" in ${db}`,
    ]);
  }, 300_000);
});

describe('batches over a Postgres server whose listening connection is cut', () => {
  it('a replica announces the end of a batch it follows once its LISTEN connection is back (the NOTIFY sent meanwhile is lost)', async () => {
    const where = await fresh('postgres');
    const sql = await openMigrated(where);
    const { ports, rubrics } = await leapService();
    const svc = await createStoredBatchService(
      batchesOver(sql),
      rubrics,
      createSlots(2, 4),
      { ...ports, history: null },
      pino({ level: 'silent' }),
      5000,
    );
    const admin = await openSql(server.url);
    try {
      const good = 'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n';
      const { id } = await svc.create(
        { rubric: 'leap', submissions: [{ id: 'ada', files: { 'leap.js': good } }] },
        'k',
      );
      await new Promise<void>((resolve) => {
        const off = svc.subscribe(id, (e) => e.type === 'done' && (off(), resolve()));
        void svc.status(id).then((s) => s.state === 'done' && (off(), resolve()));
      });
      // The batch has ended; a follower arrives, then the listener's connection is cut. Only the catch-up after
      // the reconnect can tell it: no further notification will come for this batch.
      const heard = new Promise<unknown>((resolve) => svc.subscribe(id, (e) => e.type === 'done' && resolve(e)));
      const cut = await admin.query<{ ok: boolean }>(
        `select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = $1 and query ilike 'listen %'`,
        [new URL(where).pathname.slice(1)],
      );
      expect(cut.map((r) => r.ok)).toEqual([true]);
      expect(await heard).toEqual({ type: 'done', done: 1, total: 1 });
    } finally {
      await svc.close();
      await admin.close();
      await sql.close();
    }
  }, 120_000);
});
