// Distributed grading on BullMQ: a real redis-server on loopback, real `evigrade worker`
// processes in real sandboxes, killed and drained for real.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRubric } from '../../src/adapters/fs/rubric-loader.js';
import { gradeBatch } from '../../src/batch.js';
import { ReportSchema, type Report } from '../../src/domain/report.js';
import type { Rubric } from '../../src/domain/rubric.js';
import type { QueueSettings } from '../../src/queue/bull.js';
import { openRedisQueue } from '../../src/queue/redis.js';
import { startRedis, type RedisServer } from '../fakes/redis.js';
import {
  configFileOf,
  doneJobs,
  kill,
  killStragglers,
  LEAP,
  LEAP_CORRECT,
  type LogLine,
  type Proc,
  slowLeap,
  spawnEvigrade,
  spawnWorker,
  startedJobs,
  testQueueSettings,
} from '../fakes/worker-proc.js';
import { firstBackend } from '../helpers.js';

const silent = pino({ level: 'silent' });

let redis: RedisServer;
let backend: string;
let rubric: Rubric;
let queueNo = 0;
beforeAll(async () => {
  [redis, backend, rubric] = await Promise.all([startRedis(), firstBackend(), loadRubric(LEAP)]);
});
afterAll(async () => {
  killStragglers();
  await redis?.stop();
});

const settings = (over: Partial<QueueSettings> = {}): QueueSettings =>
  testQueueSettings(redis.url, `t${++queueNo}`, over);
const worker = (s: QueueSettings, concurrency = 1): Proc => spawnWorker(s, backend, concurrency);
const ready = (p: Proc): Promise<LogLine> => p.until((l) => l.msg === 'worker ready');

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'evigrade-q-'));
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  return dir;
}

/** Grades a folder through the Redis queue in this process, counting every report the batch hands out. */
async function gradeViaRedis(
  s: QueueSettings,
  subs: string,
  out = mkdtempSync(join(tmpdir(), 'evigrade-q-out-')),
  stop = new AbortController(),
): Promise<{ reports: Map<string, Report>; doneCalls: string[]; out: string; where: Map<string, string> }> {
  const queue = await openRedisQueue(s, silent);
  const doneCalls: string[] = [];
  const where = new Map<string, string>();
  try {
    const expected = await queue.collect(rubric);
    const res = await gradeBatch(
      rubric,
      expected,
      { submissionsDir: subs, outDir: out, force: false },
      { queue, judge: null, now: () => new Date(), tools: {} },
      { start: () => undefined, started: (id, w) => where.set(id, w), done: (id) => doneCalls.push(id) },
      stop.signal,
    );
    return { reports: new Map(res.reports.map((r) => [r.submission.id, r])), doneCalls, out, where };
  } finally {
    await queue.close();
  }
}

/** Each report's status and passed/total tests, by submission. */
const summaryOf = (reports: Map<string, Report>): Record<string, [string, string]> =>
  Object.fromEntries(
    [...reports]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([id, r]) => [id, [r.status, `${r.tests.filter((t) => t.status === 'passed').length}/${r.tests.length}`]]),
  );

describe('BullMQ workers on Redis', () => {
  it('the in-process and Redis paths write identical reports for the same inputs (apart from timings)', async () => {
    const subs = folder({
      'correct/leap.js': LEAP_CORRECT,
      'partial.js': 'module.exports = { isLeap: (y) => y % 4 === 0 };\n',
      'broken/leap.js': 'export const isLeap = (y) => {{ ;\n',
      'exiter.js': 'process.exit(0);\nmodule.exports = { isLeap: () => false };\n',
      'ignored/leap.js': LEAP_CORRECT,
      'ignored/package.json': '{}',
    });
    symlinkSync('/etc/passwd', join(subs, 'sneaky.js'));
    const s = settings();
    const w = worker(s, 2);
    await ready(w);
    const local = mkdtempSync(join(tmpdir(), 'evigrade-q-local-'));
    const remote = mkdtempSync(join(tmpdir(), 'evigrade-q-remote-'));
    const cfg = configFileOf(s);
    const [a, b] = [
      await spawnEvigrade([
        'grade',
        subs,
        '--rubric',
        LEAP,
        '--out',
        local,
        '--sandbox',
        backend,
        '--concurrency',
        '2',
        '--no-llm',
      ]).exited,
      await spawnEvigrade([
        'grade',
        subs,
        '--rubric',
        LEAP,
        '--out',
        remote,
        '--queue',
        s.url,
        '--config',
        cfg,
        '--no-llm',
      ]).exited,
    ];
    await kill(w, 'SIGTERM');
    expect([a.code, b.code]).toEqual([0, 0]);
    const files = readdirSync(local).sort();
    expect(readdirSync(remote).sort()).toEqual(files);
    // Timings are measurements of this run; everything else is the same bytes.
    const norm = (file: string, dir: string): unknown => {
      const r = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown> & {
        tests?: { durationMs?: number }[];
      };
      delete r.timings;
      delete r.generatedAt;
      for (const t of r.tests ?? []) delete t.durationMs;
      return r;
    };
    for (const f of files.filter((x) => x.endsWith('.json'))) expect([f, norm(f, remote)]).toEqual([f, norm(f, local)]);
    expect(readFileSync(join(remote, 'grades.csv'), 'utf8')).toBe(readFileSync(join(local, 'grades.csv'), 'utf8'));
    const reports = new Map(
      files
        .filter((f) => f.endsWith('.json') && f !== 'summary.json')
        .map((f) => [f.slice(0, -5), ReportSchema.parse(JSON.parse(readFileSync(join(remote, f), 'utf8')))]),
    );
    expect(summaryOf(reports)).toEqual({
      broken: ['graded', '0/11'],
      correct: ['graded', '11/11'],
      exiter: ['graded', '0/11'],
      ignored: ['graded', '11/11'],
      partial: ['graded', '8/11'],
      sneaky: ['rejected', '0/11'],
    });
    expect([reports.get('ignored')?.submission.ignored, reports.get('correct')?.sandbox.backend]).toEqual([
      ['package.json'],
      backend,
    ]);
  });

  it('two workers share one batch; each job is graded by exactly one of them', async () => {
    const subs = folder(Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`s${i}.js`, slowLeap(400)])));
    const s = settings();
    const [w1, w2] = [worker(s), worker(s)];
    const names = (await Promise.all([ready(w1), ready(w2)])).map((l) => `${String(l.worker)} (${backend})`);
    const { reports, doneCalls, where } = await gradeViaRedis(s, subs);
    await Promise.all([kill(w1, 'SIGTERM'), kill(w2, 'SIGTERM')]);
    const graded = [...doneJobs(w1), ...doneJobs(w2)].map((l) => l.job);
    expect([doneJobs(w1).length > 0, doneJobs(w2).length > 0, graded.length, new Set(graded).size]).toEqual([
      true,
      true,
      6,
      6,
    ]);
    // Progress came back through the queue: each submission says which worker ran it.
    expect([where.size, [...new Set(where.values())].sort()]).toEqual([6, names.sort()]);
    expect([doneCalls.sort(), Object.values(summaryOf(reports))]).toEqual([
      ['s0', 's1', 's2', 's3', 's4', 's5'],
      Array(6).fill(['graded', '11/11']),
    ]);
  });

  it('a worker SIGKILLed mid-job loses nothing: the job is recovered by the other worker and every report is written exactly once', async () => {
    const subs = folder(Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}.js`, slowLeap(1500)])));
    const s = settings();
    const [victim, survivor] = [worker(s), worker(s)];
    await Promise.all([ready(victim), ready(survivor)]);
    const grading = gradeViaRedis(s, subs);
    const caught = await victim.until((l) => l.msg === 'job started' && l.kind === 'grade');
    await kill(victim);
    const { reports, doneCalls, out } = await grading;
    await kill(survivor, 'SIGTERM');
    expect([
      doneJobs(victim).length,
      doneJobs(survivor)
        .map((l) => l.job)
        .includes(caught.job),
    ]).toEqual([0, true]);
    expect(doneCalls.sort()).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5']);
    expect(readdirSync(out).sort()).toEqual([
      'grades.csv',
      'k0.json',
      'k1.json',
      'k2.json',
      'k3.json',
      'k4.json',
      'k5.json',
      'summary.json',
    ]);
    expect(Object.values(summaryOf(reports))).toEqual(Array(6).fill(['graded', '11/11']));
  });

  it('an interrupted submitter loses nothing: the re-run collects the jobs it had queued instead of grading them again', async () => {
    const subs = folder(Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`i${i}.js`, slowLeap(700)])));
    const s = settings();
    const w = worker(s);
    await ready(w);
    const out = mkdtempSync(join(tmpdir(), 'evigrade-q-out-'));
    const stop = new AbortController();
    const first = gradeViaRedis(s, subs, out, stop);
    await w.until((l) => l.msg === 'job done' && l.kind === 'grade');
    stop.abort(); // Ctrl-C: the submitter stops waiting; the queued jobs go on without it
    const partial = await first;
    await w.until(() => doneJobs(w).length === 4, 30_000).catch(() => undefined);
    const again = await gradeViaRedis(s, subs, out);
    await kill(w, 'SIGTERM');
    expect([partial.doneCalls.length < 4, doneJobs(w).length, new Set(doneJobs(w).map((l) => l.job)).size]).toEqual([
      true,
      4,
      4,
    ]);
    // The re-run hands out every report (those on disk reused, the rest collected from the queue); the worker graded each once.
    expect([again.doneCalls.sort(), Object.values(summaryOf(again.reports))]).toEqual([
      ['i0', 'i1', 'i2', 'i3'],
      Array(4).fill(['graded', '11/11']),
    ]);
  });

  it('a submission that takes its workers down every time ends as a WORKER_LOST error report, not a retry loop', async () => {
    const subs = folder({ 'crasher.js': slowLeap(3000) });
    const s = settings({ max_stalled: 1 });
    const grading = gradeViaRedis(s, subs);
    // Two workers in turn die while running it; the third only sees it fail.
    for (let i = 0; i < 2; i++) {
      const w = worker(s);
      await w.until((l) => l.msg === 'job started' && l.kind === 'grade', 30_000);
      await kill(w);
    }
    const third = worker(s);
    const { reports } = await grading;
    await kill(third, 'SIGTERM');
    const r = reports.get('crasher') as Report;
    expect([r.status, r.errors.map((e) => e.code), startedJobs(third).length]).toEqual(['error', ['WORKER_LOST'], 0]);
    expect(r.errors[0]?.message).toBe(
      'the job took its worker down 2 time(s) (killed, crashed or stalled past its lock); it is not retried again',
    );
  });

  it('SIGTERM drains: the running job finishes and is delivered, then the worker exits 0', async () => {
    const subs = folder({ 'drained.js': slowLeap(1500) });
    const s = settings();
    const w = worker(s);
    await ready(w);
    const grading = gradeViaRedis(s, subs);
    await w.until((l) => l.msg === 'job started' && l.kind === 'grade');
    w.child.kill('SIGTERM');
    const [{ reports }, exit] = await Promise.all([grading, w.exited]);
    expect([
      exit.code,
      summaryOf(reports),
      w.lines.map((l) => l.msg).filter((m) => m === 'job done' || m === 'stopped'),
    ]).toEqual([0, { drained: ['graded', '11/11'] }, ['job done', 'job done', 'stopped']]);
  });
});
