// The HTTP service: routes through app.inject, SSE and shutdown with a real listening server,
// and a property test that malformed bodies always end in a clear 4xx.
import pino from 'pino';
import { createHash } from 'node:crypto';
import { openHistory } from '../../src/adapters/store/history.js';
import { get } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudentReportSchema } from '../../src/domain/student.js';
import { ReportSchema } from '../../src/domain/report.js';
import { buildApp } from '../../src/http/app.js';
import type { AppDeps } from '../../src/http/deps.js';
import { createBatchService } from '../../src/server/batches.js';
import type { RubricStore } from '../../src/server/rubric-store.js';
import { createSlots } from '../../src/server/slots.js';
import type { BatchPorts } from '../../src/batch.js';
import { leapService } from '../helpers.js';

const KEY = 'test-key-0123456789abcdef';
const auth = { authorization: `Bearer ${KEY}` };
const GOOD = 'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n';
const SLOW = 'const t = Date.now(); while (Date.now() - t < 700); export const isLeap = (y) => y % 4 === 0;\n';

let ports: BatchPorts;
let rubrics: RubricStore;
beforeAll(async () => {
  ({ ports, rubrics } = await leapService());
});

async function app(over: Partial<AppDeps> = {}, slots = createSlots(2, 4)) {
  const dataDir = mkdtempSync(join(tmpdir(), 'evigrade-http-'));
  const deps: AppDeps = {
    rubrics,
    slots,
    ports,
    apiKeys: [KEY],
    ratePerMinute: 1000,
    logger: false,
    batches: createBatchService(dataDir, rubrics, slots, ports, pino({ level: 'silent' })),
    judgeInfo: () => ({ configured: 0 }),
    ...over,
  };
  return { app: await buildApp(deps), slots, dataDir };
}

describe('grading history over HTTP (embedded Postgres)', () => {
  it('POST /grade records who asked; the submission and flag queries list it; without --db the routes say so', async () => {
    const history = await openHistory(join(mkdtempSync(join(tmpdir(), 'evigrade-hhttp-')), 'db'));
    try {
      const { app: a } = await app({ ports: { ...ports, history }, history });
      const graded = await a.inject({
        method: 'POST',
        url: '/grade',
        headers: auth,
        payload: { rubric: 'leap', id: 'zoe', files: { 'leap.js': GOOD } },
      });
      expect(graded.statusCode).toBe(200);
      const mine = (await a.inject({ url: '/submissions/zoe/history?rubric=leap', headers: auth })).json() as {
        gradings: { submissionId: string; final: number; requestedBy: string }[];
      };
      const keyId = createHash('sha256').update(KEY).digest('hex').slice(0, 12);
      expect(mine.gradings.map((g) => [g.submissionId, g.final, g.requestedBy])).toEqual([
        ['zoe', graded.json().scores.final, `api:${keyId}`],
      ]);
      expect((await a.inject({ url: '/history?flag=judge.unknown_evidence', headers: auth })).json()).toEqual({
        gradings: [],
      });
      // A second student whose code reaches for a child process (never called): flagged by analysis.
      const reaching = `${GOOD}\nexport function never() { return require('child_process'); }\n`;
      const flaggedRun = await a.inject({
        method: 'POST',
        url: '/grade',
        headers: auth,
        payload: { rubric: 'leap', id: 'yan', files: { 'leap.js': reaching } },
      });
      expect(flaggedRun.json().flags.map((f: { code: string }) => f.code)).toContain('policy.child_process');
      const list = async (q: string) =>
        (
          (await a.inject({ url: `/history?${q}`, headers: auth })).json() as { gradings: { submissionId: string }[] }
        ).gradings.map((g) => g.submissionId);
      // Newest first.
      expect(await list('rubric=leap')).toEqual(['yan', 'zoe']);
      expect(await list('rubric=leap&flagged=true')).toEqual(['yan']);
      expect(await list('flag=policy.child_process')).toEqual(['yan']);
      expect(await list('rubric=leap&flagged=false')).toEqual(['yan', 'zoe']);
      expect((await a.inject({ url: '/history?colour=red', headers: auth })).json().error.code).toBe('BODY_INVALID');
    } finally {
      await history.close();
    }
    const { app: none } = await app();
    expect((await none.inject({ url: '/history', headers: auth })).json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'this server records no grading history (start it with --db)' },
    });
  }, 120_000);
});

describe('routes (inject)', () => {
  it('health is open; everything else needs a valid bearer key (401 / 403 with clear bodies)', async () => {
    const { app: a } = await app();
    const res = await Promise.all([
      a.inject({ url: '/healthz' }),
      a.inject({ url: '/rubrics' }),
      a.inject({ url: '/rubrics', headers: { authorization: 'Bearer wrong-key-000000000000' } }),
    ]);
    expect(res.map((r) => [r.statusCode, r.json()])).toEqual([
      [200, { ok: true }],
      [401, { error: { code: 'AUTH_MISSING', message: 'send "Authorization: Bearer <API key>"' } }],
      [403, { error: { code: 'AUTH_INVALID', message: 'the API key is not valid' } }],
    ]);
  });

  it('serves public rubric fields only: never hidden tests, their names or the reference', async () => {
    const { app: a } = await app();
    const r = await a.inject({ url: '/rubrics/leap', headers: auth });
    expect(Object.keys(r.json()).sort()).toEqual([
      'blend',
      'complexity',
      'criteria',
      'entry',
      'id',
      'language',
      'limits',
      'sha256',
      'statement',
      'testCount',
      'title',
    ]);
    expect(r.body).not.toMatch(/leap\.spec|reference|year divisible by 400/);
    expect((await a.inject({ url: '/rubrics/nope', headers: auth })).json().error.code).toBe('RUBRIC_NOT_FOUND');
  });

  it('POST /grade returns the audit report', async () => {
    const { app: a } = await app();
    const r = await a.inject({
      method: 'POST',
      url: '/grade',
      headers: auth,
      payload: { rubric: 'leap', id: 'alice', files: { 'leap.js': GOOD } },
    });
    expect(r.statusCode).toBe(200);
    const report = ReportSchema.parse(r.json());
    expect([report.submission.id, report.status, report.scores.final]).toEqual(['alice', 'graded', 10]);
  });

  it('names the field path of a validation error (400) and the intake problem of a bad file map', async () => {
    const { app: a } = await app();
    const bad = await a.inject({
      method: 'POST',
      url: '/grade',
      headers: auth,
      payload: { rubric: 'leap', files: { 'leap.js': 42 } },
    });
    expect([bad.statusCode, bad.json().error.code, bad.json().error.message]).toEqual([
      400,
      'BODY_INVALID',
      'files.leap.js: Invalid input: expected string, received number',
    ]);
    const trick = await a.inject({
      method: 'POST',
      url: '/grade',
      headers: auth,
      payload: { rubric: 'leap', files: { '../../etc/leap.js': GOOD } },
    });
    expect([trick.statusCode, trick.json().error.code]).toEqual([400, 'INTAKE_PATH_INVALID']);
    const renamed = await a.inject({
      method: 'POST',
      url: '/grade',
      headers: auth,
      payload: { rubric: 'leap', id: 'dan', files: { 'Leap.js': GOOD } },
    });
    expect([renamed.statusCode, renamed.json().error.code, renamed.json().error.message]).toEqual([
      400,
      'INTAKE_ENTRY_MISSING',
      'submission "dan": the rubric\'s entry "./leap" needs leap.js at the top of the submission; found Leap.js',
    ]);
  });

  it('limits bodies (413) and refuses invalid UTF-8 and prototype keys (400)', async () => {
    const { app: a } = await app({ bodyLimit: 10_000 });
    const big = await a.inject({
      method: 'POST',
      url: '/grade',
      headers: auth,
      payload: { rubric: 'leap', files: { 'leap.js': 'x'.repeat(20_000) } },
    });
    const utf8 = await a.inject({
      method: 'POST',
      url: '/grade',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
    });
    const proto = await a.inject({
      method: 'POST',
      url: '/grade',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"rubric":"leap","files":{"leap.js":"1"},"__proto__":{"x":1}}',
    });
    expect([big, utf8, proto].map((r) => [r.statusCode, r.json().error.code])).toEqual([
      [413, 'BODY_TOO_LARGE'],
      [400, 'BODY_INVALID'],
      [400, 'BODY_INVALID'],
    ]);
  });

  it('rate-limits per key with 429 and Retry-After', async () => {
    const { app: a } = await app({ ratePerMinute: 3 });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await a.inject({ url: '/rubrics', headers: auth })).statusCode);
    const last = await a.inject({ url: '/rubrics', headers: auth });
    expect([codes, last.json().error.code, Number(last.headers['retry-after']) > 0]).toEqual([
      [200, 200, 200, 429],
      'RATE_LIMITED',
      true,
    ]);
  });

  it('answers 503 with Retry-After at once when every slot and queue place is taken', async () => {
    const { app: a } = await app({}, createSlots(1, 0));
    const slow = a.inject({
      method: 'POST',
      url: '/grade',
      headers: auth,
      payload: { rubric: 'leap', files: { 'leap.js': SLOW } },
    });
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    const refused = await a.inject({
      method: 'POST',
      url: '/grade',
      headers: auth,
      payload: { rubric: 'leap', files: { 'leap.js': GOOD } },
    });
    expect([
      refused.statusCode,
      refused.json().error.code,
      Number(refused.headers['retry-after']) >= 1,
      Date.now() - t0 < 600,
    ]).toEqual([503, 'QUEUE_FULL', true, true]);
    expect((await slow).statusCode).toBe(200);
  });

  it('publishes an OpenAPI document generated from the zod schemas', async () => {
    const { app: a } = await app();
    const doc = (await a.inject({ url: '/openapi.json' })).json();
    expect([
      doc.openapi,
      Object.keys(doc.components.schemas).sort(),
      doc.components.schemas.GradeRequest.required,
    ]).toEqual([
      '3.1.0',
      ['BatchRequest', 'BatchStatus', 'Error', 'GradeRequest', 'Report', 'StudentReport', 'Summary'],
      ['rubric', 'files'],
    ]);
  });
});

describe('malformed bodies (property)', () => {
  it('always end in a 4xx with a clear error, never a 5xx', async () => {
    const { app: a } = await app({ bodyLimit: 64 * 1024 });
    const trickyPath = fc.constantFrom(
      '../leap.js',
      '/etc/passwd',
      'a/../../b.js',
      'a\\b.js',
      '\u202Eevil.js',
      'x\u0000.js',
      '',
      '.',
      'a//b.js',
      '-rf.js',
      'node_modules/../../x.js',
      'a'.repeat(600),
      'lib/evil.node',
    );
    const nested = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.string(),
        fc.integer(),
        fc.array(tie('v')),
        fc.dictionary(fc.string(), tie('v')),
      ),
    })).v;
    const body = fc.oneof(
      fc.anything(),
      nested,
      fc.record({
        rubric: fc.oneof(fc.constant('leap'), fc.string(), fc.integer()),
        files: fc.dictionary(trickyPath, fc.oneof(fc.string(), fc.integer(), nested)),
      }),
      fc.record({ rubric: fc.constant('leap'), files: fc.dictionary(trickyPath, fc.string(), { minKeys: 1 }) }),
      fc.record({ rubric: fc.constant('leap'), files: fc.constant({ 'leap.js': 'x'.repeat(70_000) }) }),
    );
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const res = await a.inject({
          method: 'POST',
          url: '/grade',
          headers: { ...auth, 'content-type': 'application/json' },
          payload: JSON.stringify(payload) ?? 'undefined',
        });
        const json = res.json() as { error?: { code?: string; message?: string } };
        return (
          res.statusCode >= 400 &&
          res.statusCode < 500 &&
          typeof json.error?.code === 'string' &&
          (json.error.message ?? '').length > 0
        );
      }),
      { numRuns: 300 },
    );
    const raw = await Promise.all(
      [Buffer.from([0xc3, 0x28]), Buffer.from('{"rubric":'), Buffer.from('[[[[[[[[[[')].map((p) =>
        a.inject({
          method: 'POST',
          url: '/grade',
          headers: { ...auth, 'content-type': 'application/json' },
          payload: p,
        }),
      ),
    );
    expect(raw.map((r) => r.statusCode)).toEqual([400, 400, 400]);
  });
});

describe('batches over a real socket', () => {
  let server: Awaited<ReturnType<typeof app>>;
  let base = '';
  beforeAll(async () => {
    server = await app();
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}`;
  });
  afterAll(() => server.app.close());

  it('POST /batches → 202; server-sent events report each submission, then done; reports and summary are served', async () => {
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
    const events = await new Promise<string[]>((resolve, reject) => {
      get(`${base}/batches/${id}/events`, { headers: auth }, (res) => {
        let buf = '';
        res.on('data', (c: Buffer) => {
          buf += c.toString();
        });
        res.on('end', () =>
          resolve(
            buf
              .split('\n')
              .filter((l) => l.startsWith('event: '))
              .map((l) => l.slice(7)),
          ),
        );
      }).on('error', reject);
    });
    expect(events[0]).toBe('progress');
    expect(events.at(-1)).toBe('done');
    const status = (await (await fetch(`${base}/batches/${id}`, { headers: auth })).json()) as {
      state: string;
      submissions: { id: string; status: string }[];
    };
    expect([status.state, status.submissions.map((s) => `${s.id}:${s.status}`)]).toEqual([
      'done',
      ['a:graded', 'b:graded', 'c:graded'],
    ]);
    const report = ReportSchema.parse(await (await fetch(`${base}/batches/${id}/reports/b`, { headers: auth })).json());
    const summary = (await (await fetch(`${base}/batches/${id}/summary`, { headers: auth })).json()) as {
      count: number;
      graded: number;
    };
    expect([report.submission.id, summary.count, summary.graded]).toEqual(['b', 3, 3]);
    // ?for=student: the student view (issue 33); the leap rubric sets no visibility, so every test is hidden.
    const view = await fetch(`${base}/batches/${id}/reports/b?for=student`, { headers: auth });
    const text = await view.text();
    const student = StudentReportSchema.parse(JSON.parse(text));
    expect([view.status, student.tests.map((t) => [t.title, t.status, t.message])]).toEqual([
      200,
      report.tests.map((t, i) => [`hidden test ${i + 1}`, t.status, null]),
    ]);
    for (const t of report.tests) expect(text).not.toContain(t.path.at(-1));
    const bad = await fetch(`${base}/batches/${id}/reports/b?for=teacher`, { headers: auth });
    expect([bad.status, ((await bad.json()) as { error: { code: string } }).error.code]).toEqual([400, 'BODY_INVALID']);
  });

  it('accepts a gzipped tar of submissions under the folder intake rules; links reject their submission, bombs and escapes the upload', async () => {
    const tarOf = async (
      entries: { name: string; body?: string | Buffer; type?: 'file' | 'symlink'; linkname?: string }[],
    ): Promise<Buffer> => {
      const p = pack();
      for (const e of entries) p.entry({ name: e.name, type: e.type ?? 'file', linkname: e.linkname }, e.body ?? '');
      p.finalize();
      const chunks: Buffer[] = [];
      for await (const c of p) chunks.push(c as Buffer);
      return gzipSync(Buffer.concat(chunks));
    };
    const upload = (body: Buffer, rubric = 'leap') =>
      fetch(`${base}/batches?rubric=${rubric}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/gzip' },
        body: new Uint8Array(body),
      });
    const ok = await upload(
      await tarOf([
        { name: 'alice/leap.js', body: GOOD },
        { name: 'bob.js', body: GOOD },
        { name: 'carol/leap.js', body: GOOD },
        { name: 'carol/secret.js', type: 'symlink', linkname: '/etc/passwd' },
        { name: 'dave/leap.js', body: Buffer.from([0x63, 0xe9, 0x20]) },
      ]),
    );
    expect(ok.status).toBe(202);
    const { id } = (await ok.json()) as { id: string };
    let st = { state: '', submissions: [] as { id: string; status: string }[] };
    for (let i = 0; i < 100 && st.state !== 'done'; i++) {
      st = (await (await fetch(`${base}/batches/${id}`, { headers: auth })).json()) as typeof st;
      if (st.state !== 'done') await new Promise((r) => setTimeout(r, 100));
    }
    expect(st.submissions.map((s) => `${s.id}:${s.status}`)).toEqual([
      'alice:graded',
      'bob:graded',
      'carol:rejected',
      'dave:rejected',
    ]);
    const carol = ReportSchema.parse(
      await (await fetch(`${base}/batches/${id}/reports/carol`, { headers: auth })).json(),
    );
    expect(carol.errors.map((e) => e.code)).toEqual(['INTAKE_SYMLINK']);
    const escape = await upload(await tarOf([{ name: '../../etc/leap.js', body: GOOD }]));
    const bomb = await upload(gzipSync(Buffer.alloc(80 * 1024 * 1024)));
    expect([escape.status, bomb.status]).toEqual([400, 400]);
    expect(((await bomb.json()) as { error: { message: string } }).error.message).toMatch(/limit/);
  });

  it('drains on shutdown: in-flight work finishes, new work is refused with 503', async () => {
    const local = await app();
    await local.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(local.app.server.address() as { port: number }).port}`;
    const post = (files: Record<string, string>) =>
      fetch(`${url}/grade`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ rubric: 'leap', files }),
      });
    const inflight = post({ 'leap.js': SLOW });
    await new Promise((r) => setTimeout(r, 150));
    const draining = local.slots.drain();
    const refused = await post({ 'leap.js': GOOD });
    expect([refused.status, ((await refused.json()) as { error: { code: string } }).error.code]).toEqual([
      503,
      'SHUTTING_DOWN',
    ]);
    expect((await inflight).status).toBe(200);
    await draining;
    await local.app.close();
  });
});
