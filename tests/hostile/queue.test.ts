// Redis is the control plane: no job may reach it, see its URL or password, or be trusted
// when it arrives from it. Real redis-server, real workers, every isolating backend.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeterministicReport } from '../../src/domain/report.js';
import type { QueueSettings } from '../../src/queue/bull.js';
import { gradeJobData, openRedisQueue, rubricWire } from '../../src/queue/redis.js';
import { startRedis, type RedisServer } from '../fakes/redis.js';
import {
  kill,
  killStragglers,
  LEAP_CORRECT,
  type Proc,
  spawnEvigrade,
  spawnWorker,
  testQueueSettings,
} from '../fakes/worker-proc.js';
import { inlineRubric, inlineSubmission, isolatingBackends } from '../helpers.js';

const PASSWORD = 'hunter2-control-plane-secret';
const backends = (await isolatingBackends()).filter((b) => b.ok).map((b) => b.id);
const hostAddresses = Object.values(networkInterfaces())
  .flat()
  .filter((a) => a && !a.internal && a.family === 'IPv4')
  .map((a) => a?.address as string);

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis({ password: PASSWORD, anyAddress: true });
});
afterAll(async () => {
  killStragglers();
  await redis?.stop();
});

const settings = (name: string): QueueSettings => testQueueSettings(redis.url, name);
const worker = (s: QueueSettings, backend: string): Proc => spawnWorker(s, backend);

// The student's code tries Redis on loopback and on every address of the host, and says what happened.
const PROBE = `const net = require('node:net');
exports.probe = (host, port) => new Promise((resolve) => {
  let s;
  // The realm's net refuses at once (issue 30); an OS that let it through would still have to stop it.
  try { s = net.connect({ host, port }); } catch (e) { return resolve(e.code); }
  s.setTimeout(1500);
  s.on('connect', () => { s.write('*3\\r\\n$3\\r\\nSET\\r\\n$5\\r\\npwned\\r\\n$1\\r\\n1\\r\\n'); setTimeout(() => { s.destroy(); resolve('connected'); }, 200); });
  s.on('error', (e) => resolve(e.code));
  s.on('timeout', () => { s.destroy(); resolve('timeout'); });
});
exports.env = () => Object.entries(process.env).map(([k, v]) => k + '=' + v);
`;
const probeTests = (port: number): Record<string, string> => ({
  'probe.test.js': `const { probe, env } = require('./solution');
test('redis on loopback is out of reach', async () => { expect(await probe('127.0.0.1', ${port})).not.toBe('connected'); });
test('redis on the host addresses is out of reach', async () => {
  for (const h of ${JSON.stringify(hostAddresses)}) expect([h, await probe(h, ${port})]).not.toEqual([h, 'connected']);
});
test('no queue URL or secret in the environment', () => { expect(env().filter((e) => /redis|evigrade|${PASSWORD}|${port}/i.test(e))).toEqual([]); });
`,
});

describe.each(backends)('%s worker', (backend) => {
  it('a job cannot reach Redis (loopback or host addresses) nor see its URL; the password never reaches a log', async () => {
    const s = settings(`sec-${backend}`);
    const w = worker(s, backend);
    const ready = await w.until((l) => l.msg === 'worker ready');
    const queue = await openRedisQueue(s, pino({ level: 'silent' }));
    const rubric = inlineRubric(probeTests(redis.port));
    let report: DeterministicReport;
    try {
      const expected = await queue.collect(rubric);
      report = await queue.grade({
        scope: 'sec',
        rubric,
        expected,
        submission: inlineSubmission({ 'solution.js': PROBE }),
        interactive: false,
      });
    } finally {
      await queue.close();
      await kill(w, 'SIGTERM');
    }
    const admin = new Redis(redis.url);
    const pwned = await admin.exists('pwned');
    admin.disconnect();
    expect([report.sandbox.backend, report.tests.map((t) => [t.name, t.status, t.message])]).toEqual([
      backend,
      [
        ['redis on loopback is out of reach', 'passed', ''],
        ['redis on the host addresses is out of reach', 'passed', ''],
        ['no queue URL or secret in the environment', 'passed', ''],
      ],
    ]);
    expect([pwned, ready.queue, w.stderr().includes(PASSWORD)]).toEqual([
      0,
      `redis://:***@127.0.0.1:${redis.port}`,
      false,
    ]);
  });
});

describe('credentials', () => {
  it('a wrong password fails a worker and a submitter at once (exit 4), naming the redacted URL; no password is printed', async () => {
    const wrong = redis.url.replace(PASSWORD, 'guessed-password-123');
    const w = spawnEvigrade(['worker', '--queue', wrong, '--sandbox', backends[0] as string]);
    const subs = mkdtempSync(join(tmpdir(), 'evigrade-qpw-'));
    writeFileSync(join(subs, 'ada.js'), LEAP_CORRECT);
    const g = spawnEvigrade([
      'grade',
      subs,
      '--rubric',
      'rubrics/leap/rubric.yaml',
      '--out',
      join(subs, 'never'),
      '--queue',
      wrong,
      '--no-llm',
    ]);
    const [we, ge] = await Promise.all([w.exited, g.exited]);
    const line = `evigrade: error QUEUE_UNAVAILABLE: cannot reach the job queue at redis://:***@127.0.0.1:${redis.port}: WRONGPASS invalid username-password pair or user is disabled.`;
    expect([we.code, ge.code, w.stderr().includes(line), g.stderr().includes(line)]).toEqual([4, 4, true, true]);
    expect([w.stderr() + g.stderr()].map((t) => [t.includes('guessed-password-123'), t.includes(PASSWORD)])).toEqual([
      [false, false],
    ]);
  });
});

describe('job data from the queue is validated like HTTP input', () => {
  it('forged jobs fail as JOB_INVALID without retry, a path escape is a rejected report, and the worker goes on', async () => {
    const s = settings('forged');
    const w = worker(s, backends[0] as string);
    await w.until((l) => l.msg === 'worker ready');
    const conn = new Redis(redis.url, { maxRetriesPerRequest: null });
    const q = new Queue(s.name, { connection: conn, prefix: s.prefix });
    const events = new QueueEvents(s.name, { connection: conn, prefix: s.prefix });
    await events.waitUntilReady();
    const rubric = inlineRubric({
      'a.test.js': "const { f } = require('./solution');\ntest('f', () => expect(f()).toBe(1));\n",
    });
    const key = (sha: string): string => `${s.prefix}:${s.name}:rubric:${sha}`;
    await conn.set(key(rubric.sha256), JSON.stringify(rubricWire(rubric)));
    const good = gradeJobData(
      {
        scope: 'x',
        rubric,
        expected: [{ file: 'a.test.js', index: 0, path: ['f'] }],
        submission: inlineSubmission({ 'solution.js': 'exports.f = () => 1;' }),
        interactive: false,
      },
      1 << 20,
    );
    // A rubric stored under a hash its content does not have.
    const forgedSha = 'f'.repeat(64);
    await conn.set(key(forgedSha), JSON.stringify({ ...rubricWire(rubric), sha256: forgedSha }));
    const outcome = async (name: string, data: unknown): Promise<[string, unknown]> => {
      const job = await q.add(name, data, { attempts: 3 });
      try {
        const r = (await job.waitUntilFinished(events, 30_000)) as DeterministicReport;
        return ['completed', [r.status, r.errors.map((e) => e.code)]];
      } catch (e) {
        const again = await q.getJob(job.id as string);
        return ['failed', [JSON.parse((e as Error).message.replace(/^evigrade:/, '')).code, again?.attemptsMade]];
      }
    };
    try {
      expect([
        await outcome('grade', { v: 1, rubric: rubric.sha256 }),
        await outcome('grade', {
          ...good,
          submission: { ...good.submission, files: { '../../../etc/cron.d/x': 'x' } },
        }),
        // The worker re-applies intake whole, the entry check included (issue 16).
        await outcome('grade', {
          ...good,
          submission: { ...good.submission, files: { 'other.js': 'exports.f = () => 1;' } },
        }),
        await outcome('grade', { ...good, rubric: forgedSha }),
        await outcome('grade', { ...good, submission: { ...good.submission, sha256: '0'.repeat(64) } }),
        await outcome('shell', { cmd: 'rm -rf /' }),
        await outcome('__proto__', good),
        await outcome('grade', good),
      ]).toEqual([
        ['failed', ['JOB_INVALID', 1]],
        ['completed', ['rejected', ['INTAKE_PATH_INVALID']]],
        ['completed', ['rejected', ['INTAKE_ENTRY_MISSING']]],
        ['failed', ['JOB_INVALID', 1]],
        ['failed', ['JOB_INVALID', 1]],
        ['failed', ['JOB_INVALID', 1]],
        ['failed', ['JOB_INVALID', 1]],
        ['completed', ['graded', []]],
      ]);
      // A submission's own name travels beside its id and comes back in the report.
      const named = await q.add('grade', { ...good, submission: { ...good.submission, name: "o'brien" } });
      expect(((await named.waitUntilFinished(events, 30_000)) as DeterministicReport).submission.name).toBe("o'brien");
    } finally {
      await events.close();
      await q.close();
      conn.disconnect();
      await kill(w, 'SIGTERM');
    }
  });
});
