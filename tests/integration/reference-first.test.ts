// The reference is graded first: a rubric whose reference fails its own tests (a typo in the tests' import, a
// reference without the entry) is refused before any student is graded, by `check-rubric` and by `grade` alike,
// unless the instructor passes --allow-failing-reference. A passing reference is remembered per rubric hash.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { referenceProblem } from '../../src/batch.js';
import { buildApp } from '../../src/http/app.js';
import { createLocalQueue } from '../../src/queue/local.js';
import { createBatchService } from '../../src/server/batches.js';
import { loadRubricStore } from '../../src/server/rubric-store.js';
import { createSlots } from '../../src/server/slots.js';
import { analysisPool, firstBackend, ROOT, sandboxFor } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'evigrade.js');

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { timeout: 120_000, env: { ...process.env, CI: 'true', HF_TOKEN: '', ...env } },
      (err, _stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

/** A rubric folder: `half` halves, its tests import `importAs`, its reference holds `refFile`. */
function rubric(importAs: string, refFile: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ref-first-'));
  mkdirSync(join(dir, 'ref'));
  writeFileSync(join(dir, 'ref', refFile), 'exports.half = (x) => x / 2;\n');
  writeFileSync(
    join(dir, 't.test.js'),
    `const { half } = require('${importAs}');\ntest('even', () => expect(half(4)).toBe(2));\ntest('odd', () => expect(half(3)).toBe(1.5));\n`,
  );
  writeFileSync(
    join(dir, 'r.yaml'),
    'id: half\ntitle: Half\nlanguage: javascript\nstatement: halve\nentry: ./half\ntests: [t.test.js]\nreference: ref\n',
  );
  const subs = join(dir, 'class');
  for (const s of ['ana', 'ben']) {
    mkdirSync(join(subs, s), { recursive: true });
    writeFileSync(join(subs, s, 'half.js'), 'exports.half = (x) => x / 2;\n');
  }
  return dir;
}

const lines = (stderr: string): string[] => stderr.split('\n').filter((l) => l && !l.startsWith('{'));

describe('the reference is graded first', () => {
  it('check-rubric fails (exit 3) when the reference folder lacks the entry, naming what it holds', async () => {
    const dir = rubric('./half', 'solution.js');
    const r = await cli(['check-rubric', join(dir, 'r.yaml')]);
    expect([r.code, lines(r.stderr)]).toEqual([
      3,
      [
        `evigrade: error REFERENCE_FAILED: ${join(dir, 'r.yaml')}: the reference solution cannot be graded: submission "reference": the rubric's entry "./half" needs half.js at the top of the submission; found solution.js`,
      ],
    ]);
  });

  it('audit fails the same way (exit 3, REFERENCE_FAILED, no report), not as a rejected student (exit 0)', async () => {
    const dir = rubric('./half', 'solution.js');
    const out = join(dir, 'audit');
    const r = await cli(['audit', join(dir, 'r.yaml'), '--out', out]);
    expect([r.code, lines(r.stderr), existsSync(out)]).toEqual([
      3,
      [
        `evigrade: error REFERENCE_FAILED: ${join(dir, 'r.yaml')}: the reference solution cannot be graded: submission "reference": the rubric's entry "./half" needs half.js at the top of the submission; found solution.js`,
      ],
      false,
    ]);
  });

  it('grade refuses the class (exit 3, no report) when the tests import the entry under a typo; the override grades it', async () => {
    const dir = rubric('./hlaf', 'half.js');
    const cache = mkdtempSync(join(tmpdir(), 'ref-cache-'));
    const out = join(dir, 'out');
    const args = ['grade', join(dir, 'class'), '--rubric', join(dir, 'r.yaml'), '--out', out, '--no-llm'];
    const refused = await cli(args, { EVIGRADE_CACHE_DIR: cache });
    expect(refused.code).toBe(3);
    expect(lines(refused.stderr)[0]).toBe(
      `evigrade: error REFERENCE_FAILED: ${join(dir, 'r.yaml')}: the reference solution fails 2 of 2 tests:`,
    );
    expect(lines(refused.stderr).at(-1)).toBe(
      `Not grading the class against it: fix the rubric (evigrade check-rubric ${join(dir, 'r.yaml')}), or pass --allow-failing-reference to grade anyway.`,
    );
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
    expect(readdirSync(join(cache)).includes('reference')).toBe(false);

    const forced = await cli([...args, '--allow-failing-reference'], { EVIGRADE_CACHE_DIR: cache });
    expect(forced.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['ana.json', 'ben.json', 'grades.csv', 'summary.json']);
  });

  it('grade goes ahead with a passing reference, and remembers the pass for that rubric and reference', async () => {
    const dir = rubric('./half', 'half.js');
    const cache = mkdtempSync(join(tmpdir(), 'ref-cache-'));
    const out = join(dir, 'out');
    const r = await cli(['grade', join(dir, 'class'), '--rubric', join(dir, 'r.yaml'), '--out', out, '--no-llm'], {
      EVIGRADE_CACHE_DIR: cache,
    });
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['ana.json', 'ben.json', 'grades.csv', 'summary.json']);
    const kept = readdirSync(join(cache, 'reference'), { recursive: true, withFileTypes: true }).filter((e) =>
      e.isFile(),
    );
    expect(kept.map((e) => /^[0-9a-f]{64}-[0-9a-f]{64}$/.test(e.name))).toEqual([true]);
  });
});

describe('POST /batches against a rubric whose reference fails', () => {
  let close: () => Promise<unknown> = async () => undefined;
  afterAll(() => close());

  it('is refused with 422 REFERENCE_FAILED (the other rubrics still serve); ?allow_failing_reference=true takes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ref-first-serve-'));
    for (const [name, importAs] of [
      ['good', './half'],
      ['typo', './hlaf'],
    ] as const) {
      serveAs(rubric(importAs, 'half.js'), join(dir, name), name);
    }
    const sandbox = await sandboxFor(await firstBackend());
    const queue = createLocalQueue(
      { sandbox, analysis: analysisPool(), now: () => new Date(), tools: {}, maxResumes: 1 },
      2,
    );
    const rubrics = await loadRubricStore(
      dir,
      (r) => queue.collect(r),
      (r, expected) => referenceProblem(r, expected, queue, r.path),
    );
    const ports = { queue, judge: null, now: () => new Date(), tools: {} };
    const slots = createSlots(2, 4);
    const log = pino({ level: 'silent' });
    const batches = createBatchService(mkdtempSync(join(tmpdir(), 'ref-first-data-')), rubrics, slots, ports, log);
    const app = await buildApp({
      rubrics,
      slots,
      ports,
      apiKeys: ['k'.repeat(32)],
      ratePerMinute: 1000,
      logger: false,
      batches,
      judgeInfo: () => ({ configured: 0 }),
    });
    close = async () => {
      await app.close();
      sandbox.close();
    };
    const post = (id: string, query = '') =>
      app.inject({
        method: 'POST',
        url: `/batches${query}`,
        headers: { authorization: `Bearer ${'k'.repeat(32)}` },
        payload: { rubric: id, submissions: [{ id: 'ana', files: { 'half.js': 'exports.half = (x) => x / 2;\n' } }] },
      });
    const refused = await post('typo');
    const body = refused.json<{ error: { code: string; message: string } }>();
    expect([refused.statusCode, body.error.code, body.error.message.split('\n')[0]]).toEqual([
      422,
      'REFERENCE_FAILED',
      `${join(dir, 'typo', 'rubric.yaml')}: the reference solution fails 2 of 2 tests:`,
    ]);
    expect(body.error.message.split('\n').at(-1)).toBe(
      'Not grading a batch against it: fix the rubric (evigrade check-rubric), or add ?allow_failing_reference=true.',
    );
    expect((await post('good')).statusCode).toBe(202);
    expect((await post('typo', '?allow_failing_reference=true')).statusCode).toBe(202);
  });
});

/** A rubric() folder as `<to>/rubric.yaml` with its tests and reference, under its own id (a served rubric folder). */
function serveAs(from: string, to: string, id: string): void {
  mkdirSync(join(to, 'ref'), { recursive: true });
  writeFileSync(join(to, 'ref', 'half.js'), readFileSync(join(from, 'ref', 'half.js')));
  writeFileSync(join(to, 't.test.js'), readFileSync(join(from, 't.test.js')));
  writeFileSync(join(to, 'rubric.yaml'), readFileSync(join(from, 'r.yaml'), 'utf8').replace('id: half', `id: ${id}`));
}
