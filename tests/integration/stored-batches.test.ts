// HTTP batches kept in the store (serve --db), on the embedded Postgres: the same API as batches on disk
// (202, SSE progress to `done`, status, reports, summary), each result recorded once in the history, and two
// services sharing one store never grading the same submission twice.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchesOver } from '../../src/adapters/store/batches.js';
import { historyOver, openMigrated } from '../../src/adapters/store/history.js';
import type { Sql } from '../../src/adapters/store/sql.js';
import type { BatchPorts } from '../../src/batch.js';
import { ReportSchema } from '../../src/domain/report.js';
import { buildApp } from '../../src/http/app.js';
import type { RubricStore } from '../../src/server/rubric-store.js';
import { createSlots } from '../../src/server/slots.js';
import { createBatchService, type BatchService } from '../../src/server/batches.js';
import { createStoredBatchService, type StoredBatchService } from '../../src/server/stored-batches.js';
import { sha256 } from '../../src/util/hash.js';
import { leapService } from '../helpers.js';

const KEY = 'stored-key-0123456789abcdef';
const auth = { authorization: `Bearer ${KEY}` };
const GOOD = 'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n';
const silent = pino({ level: 'silent' });

let ports: BatchPorts;
let rubrics: RubricStore;
let sql: Sql;
beforeAll(async () => {
  ({ ports, rubrics } = await leapService());
  sql = await openMigrated(join(mkdtempSync(join(tmpdir(), 'evigrade-stored-')), 'db'));
});
afterAll(() => sql?.close());

/** A service over the shared store whose queue notes every submission it grades. */
async function service(graded: string[]): Promise<StoredBatchService> {
  const queue = {
    ...ports.queue,
    grade: (j: Parameters<BatchPorts['queue']['grade']>[0]) => (graded.push(j.submission.id), ports.queue.grade(j)),
  };
  return createStoredBatchService(
    batchesOver(sql),
    rubrics,
    createSlots(2, 4),
    { ...ports, queue, history: null },
    silent,
    5000,
  );
}

/** Resolves when the batch is done: its `done` event, or its status if it ended before we listened. */
async function finished(svc: BatchService, id: string): Promise<void> {
  let stop = (): void => undefined;
  const ended = new Promise<void>(
    (resolve) => (stop = svc.subscribe(id, (e) => void (e.type === 'done' && resolve()))),
  );
  if ((await svc.status(id)).state !== 'done') await ended;
  stop();
}

describe('batches in the store (embedded Postgres)', () => {
  it('POST /batches → 202; SSE to done; status, reports and summary served; one history row per result, by the API key', async () => {
    const batches = await service([]);
    const slots = createSlots(2, 4);
    const app = await buildApp({
      rubrics,
      slots,
      ports,
      batches,
      apiKeys: [KEY],
      ratePerMinute: 1000,
      logger: false,
      judgeInfo: () => ({}),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    try {
      const submissions = ['a', 'b', 'c'].map((id, i) => ({
        id,
        files: { 'leap.js': i === 1 ? 'export const isLeap = () => false;\n' : GOOD },
      }));
      const created = await fetch(`${base}/batches`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ rubric: 'leap', submissions }),
      });
      expect(created.status).toBe(202);
      const { id } = (await created.json()) as { id: string };
      const text = await (await fetch(`${base}/batches/${id}/events`, { headers: auth })).text();
      const events = text
        .split('\n')
        .filter((l) => l.startsWith('event: '))
        .map((l) => l.slice(7));
      expect([events[0], events.at(-1), events.filter((e) => e === 'submission').length]).toEqual([
        'progress',
        'done',
        3,
      ]);
      const status = (await (await fetch(`${base}/batches/${id}`, { headers: auth })).json()) as {
        state: string;
        submissions: { id: string; status: string }[];
      };
      expect([status.state, status.submissions.map((s) => `${s.id}:${s.status}`)]).toEqual([
        'done',
        ['a:graded', 'b:graded', 'c:graded'],
      ]);
      const report = ReportSchema.parse(
        await (await fetch(`${base}/batches/${id}/reports/b`, { headers: auth })).json(),
      );
      const summary = (await (await fetch(`${base}/batches/${id}/summary`, { headers: auth })).json()) as {
        count: number;
        graded: number;
      };
      expect([report.submission.id, report.scores.final < 10, summary.count, summary.graded]).toEqual([
        'b',
        true,
        3,
        3,
      ]);
      const rows = await historyOver(sql).list({ rubricId: 'leap' });
      const by = `api:${sha256(KEY).slice(0, 12)}`; // the key's id, never the key
      expect(rows.map((r) => [r.submissionId, r.requestedBy])).toEqual([
        ['a', by],
        ['b', by],
        ['c', by],
      ]);
      expect((await fetch(`${base}/batches/0123456789abcdef`, { headers: auth })).status).toBe(404);
    } finally {
      await app.close();
      await batches.close();
    }
  });

  it('two services sharing the store: each submission of a batch graded by exactly one of them', async () => {
    const [byA, byB] = [[] as string[], [] as string[]];
    const [a, b] = [await service(byA), await service(byB)];
    try {
      const subs = Array.from({ length: 6 }, (_, i) => ({ id: `t${i}`, files: { 'leap.js': `// ${i}\n${GOOD}` } }));
      const { id } = await a.create({ rubric: 'leap', submissions: subs }, 'key-1');
      await finished(b, id);
      expect([...byA, ...byB].sort()).toEqual(subs.map((s) => s.id));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("names: a student's own name is listed beside the id, from the stored input, before and after grading", async () => {
    const svc = await service([]);
    try {
      const subs = [
        { id: 'zoe-1a2b3c4d', name: 'Zoë Ó Briain', files: { 'leap.js': GOOD } },
        { id: 'plain', files: { 'leap.js': GOOD } },
      ];
      const { id, submissions: early } = await svc.create({ rubric: 'leap', submissions: subs }, 'key-1');
      await finished(svc, id);
      const late = (await svc.status(id)).submissions;
      expect([early, late].map((l) => l.map((s) => [s.id, s.name ?? null]))).toEqual([
        [
          ['zoe-1a2b3c4d', 'Zoë Ó Briain'],
          ['plain', null],
        ],
        [
          ['zoe-1a2b3c4d', 'Zoë Ó Briain'],
          ['plain', null],
        ],
      ]);
      expect((await svc.report(id, 'zoe-1a2b3c4d')).submission.name).toBe('Zoë Ó Briain');
    } finally {
      await svc.close();
    }
  });

  it('a failure that would recur (here the judge throwing) becomes the error report of its submission, on disk and in the store: the batch ends', async () => {
    const judge = {
      judge: async () => {
        throw new Error('judge exploded');
      },
      describe: () => ({ disabled: null, source: 'default' as const, chain: [], unusable: [] }),
    };
    const broken = { ...ports, judge, history: null };
    const onDisk = createBatchService(
      mkdtempSync(join(tmpdir(), 'evigrade-stored-disk-')),
      rubrics,
      createSlots(2, 4),
      broken,
      silent,
    );
    const inStore = await createStoredBatchService(batchesOver(sql), rubrics, createSlots(2, 4), broken, silent, 5000);
    try {
      for (const svc of [onDisk, inStore]) {
        const { id } = await svc.create(
          { rubric: 'leap', submissions: [{ id: 'j1', files: { 'leap.js': GOOD } }] },
          'key-1',
        );
        await finished(svc, id);
        const report = await svc.report(id, 'j1');
        expect([report.status, report.errors.map((e) => [e.code, e.message])]).toEqual([
          'error',
          [['INTERNAL', 'judge exploded']],
        ]);
      }
    } finally {
      await inStore.close();
    }
  });
});
