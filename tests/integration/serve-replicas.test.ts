// Two real `serve` replicas sharing one real Postgres and one real Redis, with two `evigrade worker`s: a batch
// submitted to replica A is followed over SSE on replica B; A is SIGKILLed mid-batch; B takes over A's leases,
// the batch completes, every submission has exactly one result and one history row, and nothing was graded twice.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHistory } from '../../src/adapters/store/history.js';
import { openSql } from '../../src/adapters/store/sql.js';
import { ReportSchema } from '../../src/domain/report.js';
import { startPostgres, type PostgresServer } from '../fakes/postgres.js';
import { startRedis, type RedisServer } from '../fakes/redis.js';
import {
  doneJobs,
  kill,
  killStragglers,
  slowLeap,
  spawnEvigrade,
  spawnWorker,
  testQueueSettings,
  type Proc,
} from '../fakes/worker-proc.js';
import { firstBackend, ROOT } from '../helpers.js';

const KEY = 'replica-key-0123456789abcdef';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

let pgServer: PostgresServer;
let redis: RedisServer;
let backend: string;
beforeAll(async () => {
  const s = await startPostgres();
  if (typeof s === 'string') throw new Error(s); // CI installs postgresql and runs as root
  pgServer = s;
  [redis, backend] = await Promise.all([startRedis(), firstBackend()]);
}, 120_000);
afterAll(async () => {
  killStragglers();
  await redis?.stop();
  await pgServer?.stop();
});

interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Follows a batch's server-sent events; `until` resolves when an event matching arrives (or has). */
function follow(url: string): {
  events: SseEvent[];
  until: (pred: (e: SseEvent) => boolean) => Promise<SseEvent>;
  ended: Promise<void>;
} {
  const events: SseEvent[] = [];
  const waiters: { pred: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = [];
  const ended = (async () => {
    const res = await fetch(url, { headers });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buf = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buf += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
        const e = { event, data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown> };
        events.push(e);
        for (const w of waiters.filter((x) => x.pred(e))) w.resolve(e);
      }
    }
  })();
  return {
    events,
    ended,
    until: (pred) => {
      const seen = events.find(pred);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ pred, resolve }));
    },
  };
}

describe('serve replicas', () => {
  it('a batch survives its replica being SIGKILLed: another finishes it, SSE follows it anywhere, nothing lost or duplicated', async () => {
    const admin = await openSql(pgServer.url);
    await admin.exec('create database replicas');
    await admin.close();
    const db = pgServer.url.replace(/\/postgres$/, '/replicas');
    const queue = testQueueSettings(redis.url, 'replicas');
    const { url: _u, ...queueFile } = queue;
    const config = join(mkdtempSync(join(tmpdir(), 'evigrade-rep-')), 'evigrade.config.yaml');
    // A short lease, so the surviving replica takes over within seconds of the kill. One job in flight per
    // replica: at the kill, work is left that nobody has started, so the follower hears a `started` for sure.
    writeFileSync(config, stringify({ queue: { ...queueFile, in_flight: 1 }, db: { lease_ms: 3000 } }));
    const rubrics = mkdtempSync(join(tmpdir(), 'evigrade-rep-rubrics-'));
    cpSync(join(ROOT, 'rubrics', 'leap'), join(rubrics, 'leap'), { recursive: true });
    const workers = [spawnWorker(queue, backend), spawnWorker(queue, backend)];
    await Promise.all(workers.map((w) => w.until((l) => l.msg === 'worker ready')));
    const replica = (): Proc =>
      spawnEvigrade(
        [
          'serve',
          '--port',
          '0',
          '--rubrics',
          rubrics,
          '--data',
          mkdtempSync(join(tmpdir(), 'evigrade-rep-data-')),
          '--queue',
          queue.url,
          '--db',
          db,
          '--config',
          config,
          '--no-llm',
        ],
        { EVIGRADE_API_KEYS: KEY },
      );
    const [a, b] = [replica(), replica()];
    try {
      const [portA, portB] = (await Promise.all([a, b].map((p) => p.until((l) => l.msg === 'listening')))).map(
        (l) => l.port as number,
      );
      const submissions = Array.from({ length: 6 }, (_, i) => ({
        id: `s${i}`,
        files: { 'leap.js': `// ${i}\n${slowLeap(700)}` },
      }));
      const created = await fetch(`http://127.0.0.1:${portA}/batches`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ rubric: 'leap', submissions }),
      });
      expect(created.status).toBe(202);
      const { id } = (await created.json()) as { id: string };

      const sse = follow(`http://127.0.0.1:${portB}/batches/${id}/events`);
      const first = await sse.until((e) => e.event === 'submission');
      a.child.kill('SIGKILL');
      await a.exited;
      // Killed mid-batch: at least one result kept by A (heard on B), and work left over.
      expect((first.data.done as number) < 6).toBe(true);
      const done = await sse.until((e) => e.event === 'done');
      await sse.ended;
      expect(done.data).toMatchObject({ done: 6, total: 6 });
      // One `submission` event per submission finished after B started following, whichever replica kept it.
      const heard = sse.events.filter((e) => e.event === 'submission').map((e) => e.data.submission as string);
      const before = sse.events[0]?.data.done as number;
      expect([sse.events[0]?.event, new Set(heard).size, heard.length + before]).toEqual(['progress', heard.length, 6]);
      expect(sse.events.some((e) => e.event === 'started')).toBe(true);

      const get = async (path: string): Promise<unknown> =>
        (await fetch(`http://127.0.0.1:${portB}${path}`, { headers })).json();
      const status = (await get(`/batches/${id}`)) as { state: string; submissions: { id: string; status: string }[] };
      expect([status.state, status.submissions.map((s) => [s.id, s.status])]).toEqual([
        'done',
        submissions.map((s) => [s.id, 'graded']),
      ]);
      for (const s of submissions)
        expect(ReportSchema.parse(await get(`/batches/${id}/reports/${s.id}`)).submission.id).toBe(s.id);
      // B took over what A had claimed and not finished.
      const takenByB = b.lines.filter((l) => l.msg === 'claimed batch work').flatMap((l) => l.claimed as string[]);
      expect(takenByB.length).toBeGreaterThan(0);
      expect(takenByB.every((k) => k.startsWith(`${id}/`))).toBe(true);

      // Exactly one history row per submission (the result and its row commit together), every chain intact.
      const history = await openHistory(db);
      try {
        const rows = await history.list({ rubricId: 'leap' });
        expect(rows.map((r) => r.submissionId).sort()).toEqual(submissions.map((s) => s.id));
        expect(await history.verify()).toEqual([]);
      } finally {
        await history.close();
      }
      // The batch exported from the store: its reports as served, each verifying; a summary of all six.
      const back = mkdtempSync(join(tmpdir(), 'evigrade-rep-export-'));
      expect((await spawnEvigrade(['history', '--db', db, '--export', id, '--out', back]).exited).code).toBe(0);
      for (const s of submissions) {
        expect(JSON.parse(readFileSync(join(back, `${s.id}.json`), 'utf8'))).toEqual(
          await get(`/batches/${id}/reports/${s.id}`),
        );
        expect([s.id, (await spawnEvigrade(['verify', join(back, `${s.id}.json`)]).exited).code]).toEqual([s.id, 0]);
      }
      expect(JSON.parse(readFileSync(join(back, 'summary.json'), 'utf8'))).toMatchObject({ count: 6, graded: 6 });
      // No work done twice: B re-added A's jobs under the same ids and collected them.
      expect(workers.reduce((n, w) => n + doneJobs(w).length, 0)).toBe(6);
    } finally {
      await kill(b, 'SIGTERM');
      await Promise.all(workers.map((w) => kill(w, 'SIGTERM')));
    }
  }, 180_000);
});
