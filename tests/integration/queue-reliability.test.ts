// The queue's failure modes, for real: Redis restarting mid-batch, Redis absent, no worker
// listening, and `serve` grading through workers.
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRubric } from '../../src/adapters/fs/rubric-loader.js';
import { gradeBatch } from '../../src/batch.js';
import { EvigradeError } from '../../src/domain/errors.js';
import type { Report } from '../../src/domain/report.js';
import type { Rubric } from '../../src/domain/rubric.js';
import type { QueueSettings } from '../../src/queue/bull.js';
import { openRedisQueue } from '../../src/queue/redis.js';
import { createLimiter, type Limiter } from '../../src/util/limiter.js';
import { startRedis, type RedisServer } from '../fakes/redis.js';
import {
  configFileOf,
  doneJobs,
  kill,
  killStragglers,
  LEAP,
  LEAP_CORRECT,
  type Proc,
  slowLeap,
  spawnEvigrade,
  spawnWorker,
  startedJobs,
  testQueueSettings,
} from '../fakes/worker-proc.js';
import { firstBackend, ROOT } from '../helpers.js';

const silent = pino({ level: 'silent' });

let redis: RedisServer;
let backend: string;
let rubric: Rubric;
beforeAll(async () => {
  [redis, backend, rubric] = await Promise.all([startRedis({ persist: true }), firstBackend(), loadRubric(LEAP)]);
});
afterAll(async () => {
  killStragglers();
  await redis?.stop();
});

let n = 0;
const settings = (over: Partial<QueueSettings> = {}): QueueSettings => testQueueSettings(redis.url, `r${++n}`, over);
const worker = (s: QueueSettings): Proc => spawnWorker(s, backend);

/** A port nothing listens on. */
const closedPort = async (): Promise<number> => {
  const r = await startRedis();
  await r.stop();
  return r.port;
};

describe('queue reliability', () => {
  it('a Redis restart mid-batch (append-only file on) is survived: every report arrives once', async () => {
    const subs = mkdtempSync(join(tmpdir(), 'evigrade-qr-'));
    for (let i = 0; i < 4; i++) writeFileSync(join(subs, `r${i}.js`), slowLeap(800));
    const s = settings();
    const w = worker(s);
    await w.until((l) => l.msg === 'worker ready');
    const queue = await openRedisQueue(s, silent);
    const out = mkdtempSync(join(tmpdir(), 'evigrade-qr-out-'));
    const done: string[] = [];
    try {
      const expected = await queue.collect(rubric);
      const batch = gradeBatch(
        rubric,
        expected,
        { submissionsDir: subs, outDir: out, force: false },
        { queue, judge: null, now: () => new Date(), tools: {} },
        { start: () => undefined, done: (id) => done.push(id) },
        new AbortController().signal,
      );
      await w.until((l) => l.msg === 'job done' && l.kind === 'grade');
      await redis.restart(1000);
      const res = await batch;
      expect([done.sort(), res.reports.map((r) => [r.submission.id, r.status]).sort()]).toEqual([
        ['r0', 'r1', 'r2', 'r3'],
        [
          ['r0', 'graded'],
          ['r1', 'graded'],
          ['r2', 'graded'],
          ['r3', 'graded'],
        ],
      ]);
      expect(w.lines.some((l) => l.msg === 'job queue connection lost; reconnecting')).toBe(true);
    } finally {
      await queue.close();
      await kill(w, 'SIGTERM');
    }
  });

  it('a Redis restart that lost everything (no persistence) is survived: lost jobs and their rubric are added again', async () => {
    const volatile = await startRedis();
    const subs = mkdtempSync(join(tmpdir(), 'evigrade-qv-'));
    for (let i = 0; i < 3; i++) writeFileSync(join(subs, `v${i}.js`), slowLeap(1200));
    const s = { ...settings(), url: volatile.url };
    const w = worker(s);
    await w.until((l) => l.msg === 'worker ready');
    const queue = await openRedisQueue(s, silent);
    const out = mkdtempSync(join(tmpdir(), 'evigrade-qv-out-'));
    try {
      const expected = await queue.collect(rubric);
      const batch = gradeBatch(
        rubric,
        expected,
        { submissionsDir: subs, outDir: out, force: false },
        { queue, judge: null, now: () => new Date(), tools: {} },
        { start: () => undefined, done: () => undefined },
        new AbortController().signal,
      );
      await w.until((l) => l.msg === 'job started' && l.kind === 'grade');
      await volatile.restart(300);
      const res = await batch;
      expect(res.reports.map((r) => [r.submission.id, r.status, r.errors.map((e) => e.code)]).sort()).toEqual([
        ['v0', 'graded', []],
        ['v1', 'graded', []],
        ['v2', 'graded', []],
      ]);
      // The job that was running when Redis forgot it ran again; the worker itself lived through it.
      expect([startedJobs(w).length >= 4, w.child.exitCode]).toEqual([true, null]);
    } finally {
      await queue.close();
      await kill(w, 'SIGTERM');
      await volatile.stop();
    }
  });

  it('a worker whose Redis is gone still stops on SIGTERM (exit 0) instead of waiting for it forever', async () => {
    const gone = await startRedis();
    const s = { ...settings(), url: gone.url };
    const w = worker(s);
    await w.until((l) => l.msg === 'worker ready');
    await gone.stop();
    await w.until((l) => l.msg === 'job queue connection lost; reconnecting');
    w.child.kill('SIGTERM');
    const exit = await Promise.race([w.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 30_000))]);
    expect([exit === 'hung' ? 'hung' : exit.code, w.lines.some((l) => l.msg === 'stopped')]).toEqual([0, true]);
  });

  it('an unreachable Redis is a clear QUEUE_UNAVAILABLE naming the redacted URL (library and CLI exit 4)', async () => {
    const port = await closedPort();
    const url = `redis://:s3cret-pw@127.0.0.1:${port}`;
    const err = await openRedisQueue({ ...settings(), url, unavailable_ms: 1500 }, silent).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EvigradeError);
    expect([
      (err as EvigradeError).code,
      (err as EvigradeError).message.startsWith(`cannot reach the job queue at redis://:***@127.0.0.1:${port}: `),
    ]).toEqual(['QUEUE_UNAVAILABLE', true]);
    const subs = mkdtempSync(join(tmpdir(), 'evigrade-qe-'));
    writeFileSync(join(subs, 'ada.js'), LEAP_CORRECT);
    const cli = spawnEvigrade([
      'grade',
      subs,
      '--rubric',
      LEAP,
      '--out',
      mkdtempSync(join(tmpdir(), 'evigrade-qe-out-')),
      '--queue',
      url,
      '--no-llm',
    ]);
    const exit = await cli.exited;
    expect([
      exit.code,
      cli.stderr().includes('evigrade: error QUEUE_UNAVAILABLE: cannot reach the job queue at redis://:***@'),
      cli.stderr().includes('s3cret-pw'),
    ]).toEqual([4, true, false]);
  });

  it('with no worker serving the queue, waiting ends in QUEUE_UNAVAILABLE instead of hanging', async () => {
    const queue = await openRedisQueue(settings({ unavailable_ms: 1500 }), silent);
    try {
      const err = await queue.collect(rubric).catch((e: unknown) => e as EvigradeError);
      expect([
        err instanceof EvigradeError && err.code,
        String((err as Error).message).replace(/\d+ s/, 'N s'),
      ]).toEqual([
        'QUEUE_UNAVAILABLE',
        `no evigrade worker has served queue "r${n}" at ${redis.url} for N s (start one with: evigrade worker --queue <url>)`,
      ]);
    } finally {
      await queue.close();
    }
  });

  it('a rubric whose hidden tests do not load fails collection on the worker, named by its own file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evigrade-qb-'));
    writeFileSync(
      join(dir, 'rubric.yaml'),
      'id: broken\ntitle: B\nlanguage: javascript\nstatement: s\nentry: ./sol\ntests: [t.test.js]\n',
    );
    writeFileSync(join(dir, 't.test.js'), "test('x', () => { expect(1).toBe(1) ;\n");
    const broken = await loadRubric(join(dir, 'rubric.yaml'));
    const s = settings();
    const w = worker(s);
    await w.until((l) => l.msg === 'worker ready');
    const queue = await openRedisQueue(s, silent);
    try {
      const err = (await queue.collect(broken).catch((e: unknown) => e)) as EvigradeError;
      expect([
        err.code,
        err.message.startsWith(`${join(dir, 'rubric.yaml')}: t.test.js: cannot be loaded: `),
        err.message.includes('redis:'),
      ]).toEqual(['RUBRIC_TESTS_INVALID', true, false]);
    } finally {
      await queue.close();
      await kill(w, 'SIGTERM');
    }
  });

  it('judge calls are spaced across submitters sharing a queue: one rate budget, on Redis’s clock', async () => {
    const [a, b] = [
      await openRedisQueue(settings({ prefix: 'pace' }), silent),
      await openRedisQueue(settings({ prefix: 'pace' }), silent),
    ];
    try {
      // 600 a minute = one start every 100 ms for the whole deployment, whichever submitter asks.
      const waits: number[] = [];
      const record = async (ms: number): Promise<void> => void waits.push(ms);
      const limiters = [createLimiter(8, 600, record, a.pace), createLimiter(8, 600, record, b.pace)];
      await Promise.all(Array.from({ length: 10 }, (_, i) => (limiters[i % 2] as Limiter).run(async () => undefined)));
      const sorted = waits.sort((x, y) => x - y);
      // The first start waits for nothing; each next one an interval more (less the few ms the calls took).
      // Two local limiters would each wait 100, 200, 300, 400 ms instead.
      expect([sorted.length, sorted.every((w, i) => Math.abs(w - 100 * (i + 1)) < 60)]).toEqual([9, true]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('`serve --queue` grades POST /grade and batches on workers; /readyz shows the queue and its workers', async () => {
    const s = settings();
    const w = worker(s);
    await w.until((l) => l.msg === 'worker ready');
    const key = 'queue-test-key-0123456789';
    const srv = spawnEvigrade(
      [
        'serve',
        '--port',
        '0',
        '--rubrics',
        join(ROOT, 'rubrics'),
        '--data',
        mkdtempSync(join(tmpdir(), 'evigrade-qs-')),
        '--queue',
        s.url,
        '--config',
        configFileOf(s),
        '--no-llm',
      ],
      { EVIGRADE_API_KEYS: key },
    );
    try {
      const port = (await srv.until((l) => l.msg === 'listening')).port as number;
      const call = async (path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, {
          method: body ? 'POST' : 'GET',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: res.status, json: (await res.json()) as Record<string, unknown> };
      };
      const one = await call('/grade', { rubric: 'leap', files: { 'leap.js': LEAP_CORRECT } });
      const batch = await call('/batches', {
        rubric: 'leap',
        submissions: [
          { id: 'a', files: { 'leap.js': LEAP_CORRECT } },
          { id: 'b', files: { 'leap.js': 'export const isLeap = () => true;\n' } },
        ],
      });
      let status = batch.json;
      for (let i = 0; i < 100 && status.state !== 'done'; i++) {
        await new Promise((r) => setTimeout(r, 200));
        status = (await call(`/batches/${batch.json.id as string}`)).json;
      }
      const ready = await call('/readyz');
      expect([
        one.status,
        (one.json as unknown as Report).status,
        (one.json as unknown as Report).sandbox.backend,
        batch.status,
      ]).toEqual([200, 'graded', backend, 202]);
      expect((status.submissions as { id: string; status: string }[]).map((x) => [x.id, x.status])).toEqual([
        ['a', 'graded'],
        ['b', 'graded'],
      ]);
      expect([
        ready.status,
        (ready.json.grading as Record<string, unknown>).kind,
        (ready.json.grading as Record<string, unknown>).workers,
      ]).toEqual([200, 'redis', 1]);
      // Every bundled rubric collected plus three submissions: all of it on the worker. `serve` also grades each
      // rubric's reference at start (issue 31) unless an earlier pass is in the cache: up to one job per rubric more.
      const bundled = readdirSync(join(ROOT, 'rubrics')).filter((d) =>
        existsSync(join(ROOT, 'rubrics', d, 'rubric.yaml')),
      ).length;
      // Distinct jobs: on a loaded machine a job whose lock lapsed is run again by the queue (at least once).
      const graded = doneJobs(w).length;
      const collected = new Set(doneJobs(w, 'collect').map((l) => l.job)).size;
      expect([collected, graded >= 3 && graded <= 3 + bundled]).toEqual([bundled, true]);
    } finally {
      await kill(srv, 'SIGTERM');
      await kill(w, 'SIGTERM');
    }
  });
});
