// POST /rubrics/{id}/audit over a real socket: the audit runs as a job in a sandbox of its own, its progress streams as
// server-sent events, and its audit.json is fetched afterwards; the same bearer keys as every other route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstBackend, leapService } from '../helpers.js';
import { buildApp } from '../../src/http/app.js';
import { createSlots } from '../../src/server/slots.js';
import { createBatchService } from '../../src/server/batches.js';
import { createAuditService } from '../../src/server/audits.js';
import { auditWithSandbox } from '../../src/commands/audit.js';
import { AuditReportSchema } from '../../src/domain/audit.js';

const KEY = 'audit-key';
let app: Awaited<ReturnType<typeof buildApp>>;
let base = '';

beforeAll(async () => {
  const { ports, rubrics } = await leapService();
  const backend = await firstBackend();
  const slots = createSlots(2, 4);
  // The audit starts once the test listens to its events, so every progress event is seen (no race with its start).
  let listening: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (listening = resolve));
  const service = createAuditService({
    rubrics,
    now: () => new Date(),
    run: async (rubric, onProgress) => {
      await gate;
      return auditWithSandbox(rubric, backend, 2, onProgress);
    },
  });
  const audits = {
    ...service,
    subscribe: (id: string, fn: Parameters<typeof service.subscribe>[1]) => {
      const off = service.subscribe(id, fn);
      listening();
      return off;
    },
  };
  app = await buildApp({
    rubrics,
    slots,
    ports,
    apiKeys: [KEY],
    ratePerMinute: 1000,
    logger: false,
    batches: createBatchService(
      mkdtempSync(join(tmpdir(), 'evigrade-audit-http-')),
      rubrics,
      slots,
      ports,
      pino({ level: 'silent' }),
    ),
    judgeInfo: () => ({ configured: 0 }),
    audits,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}, 180_000);
afterAll(() => app?.close());

const auth = { authorization: `Bearer ${KEY}` };

/** Every event of an SSE stream until it ends: [event, data]. */
async function events(url: string): Promise<[string, Record<string, unknown>][]> {
  const res = await fetch(url, { headers: auth });
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((b) => b.trim())
    .map((b) => {
      const [ev, data] = b.split('\n');
      return [ev!.slice('event: '.length), JSON.parse(data!.slice('data: '.length)) as Record<string, unknown>];
    });
}

describe('POST /rubrics/{id}/audit', () => {
  it('refuses a request without a key and an unknown rubric, like every route', async () => {
    const bare = await fetch(`${base}/rubrics/leap/audit`, { method: 'POST' });
    expect(bare.status).toBe(401);
    const unknown = await fetch(`${base}/rubrics/nope/audit`, { method: 'POST', headers: auth });
    expect([unknown.status, ((await unknown.json()) as { error: { code: string } }).error.code]).toEqual([
      404,
      'RUBRIC_NOT_FOUND',
    ]);
    const noAudit = await fetch(`${base}/audits/a-00000000-0000-0000-0000-000000000000`, { headers: auth });
    expect([noAudit.status, ((await noAudit.json()) as { error: { code: string } }).error.code]).toEqual([
      404,
      'NOT_FOUND',
    ]);
  });

  it('streams the audit of rubrics/leap to its end, then serves its audit.json', async () => {
    const started = await fetch(`${base}/rubrics/leap/audit`, { method: 'POST', headers: auth });
    expect(started.status).toBe(202);
    const job = (await started.json()) as { id: string; rubric: string; state: string };
    expect([job.rubric, job.state, started.headers.get('location')]).toEqual(['leap', 'running', `/audits/${job.id}`]);
    // A second request while it runs gets the same job, not a second audit.
    const again = await fetch(`${base}/rubrics/leap/audit`, { method: 'POST', headers: auth });
    expect(((await again.json()) as { id: string }).id).toBe(job.id);

    const seen = await events(`${base}/audits/${job.id}/events`);
    const [lastType, last] = seen.at(-1)!;
    expect(lastType).toBe('done');
    expect(last).toEqual({
      score: 1,
      counts: { total: 15, killed: 15, survived: 0, timeout: 0, error: 0, ignored: 0 },
    });
    expect(seen.slice(0, -1).every(([t]) => t === 'progress')).toBe(true);
    // One event per mutant, each naming it and its verdict, counting up to 15.
    const mutants = seen.filter(([, d]) => d.phase === 'mutants');
    expect(mutants.map(([, d]) => d.done)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(mutants.every(([, d]) => (d.mutant as { status: string }).status === 'killed')).toBe(true);

    const result = await fetch(`${base}/audits/${job.id}/result`, { headers: auth });
    expect(result.status).toBe(200);
    const report = AuditReportSchema.parse(await result.json());
    expect([report.rubric.id, report.score, report.counts.total, report.coverage.measured]).toEqual([
      'leap',
      1,
      15,
      true,
    ]);
    // After the end, the stream says so at once.
    expect((await events(`${base}/audits/${job.id}/events`)).map(([t]) => t)).toEqual(['progress', 'done']);
    const status = (await (await fetch(`${base}/audits/${job.id}`, { headers: auth })).json()) as { state: string };
    expect(status.state).toBe('done');
  }, 600_000);
});
