// Leaks through the grader itself rather than through the sandbox (issue 12): a TypeScript submission
// asking the host-side type checker for host files, end to end through POST /grade.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRubric } from '../../src/adapters/fs/rubric-loader.js';
import { EvigradeError } from '../../src/domain/errors.js';
import { ReportSchema } from '../../src/domain/report.js';
import { buildApp } from '../../src/http/app.js';
import { createBatchService } from '../../src/server/batches.js';
import type { RubricStore } from '../../src/server/rubric-store.js';
import { createSlots } from '../../src/server/slots.js';
import { collectExpected } from '../../src/pipeline.js';
import { createLocalQueue } from '../../src/queue/local.js';
import { analysisPool, firstBackend, ROOT, sandboxFor } from '../helpers.js';

const KEY = 'test-key-0123456789abcdef';
const secrets = mkdtempSync(join(tmpdir(), 'tc-leak-'));
const SECRET_JSON = join(secrets, 'grader-secret.json');
const SECRET_DTS = join(secrets, 'grader-secret.d.ts');
afterAll(() => rmSync(secrets, { recursive: true, force: true }));

describe('type checking over POST /grade', () => {
  let rubrics: RubricStore;
  beforeAll(async () => {
    writeFileSync(SECRET_JSON, JSON.stringify({ hf_token_field: 'hf_planted_value_123' }));
    writeFileSync(SECRET_DTS, 'declare const PLANTED_GLOBAL: { planted_key: "planted-literal" };\n');
    const rubric = await loadRubric(join(ROOT, 'rubrics', 'temperature', 'rubric.yaml'));
    const loaded = { rubric, expected: await collectExpected(rubric, await sandboxFor(await firstBackend())) };
    rubrics = {
      get: (id) => {
        if (id !== 'temperature') throw new EvigradeError('RUBRIC_NOT_FOUND', `no rubric "${id}"`);
        return loaded;
      },
      list: () => [loaded],
    };
  });

  it("reports host files as not found and nothing of them: the grader's package.json, a planted secret, /etc/passwd, a triple-slash reference", async () => {
    const sandbox = await sandboxFor(await firstBackend());
    const ports = { queue: createLocalQueue({ sandbox, analysis: analysisPool(), judge: null, now: () => new Date(), tools: {}, maxResumes: 0 }, 1), judge: null, now: () => new Date(), tools: {} };
    const slots = createSlots(1, 4);
    const app = await buildApp({
      rubrics, slots, ports, apiKeys: [KEY], ratePerMinute: 1000, logger: false,
      batches: createBatchService(mkdtempSync(join(tmpdir(), 'evigrade-http-')), rubrics, slots, ports), judgeInfo: () => ({ configured: 0 }),
    });
    const reference = readFileSync(join(ROOT, 'rubrics', 'temperature', 'reference', 'temperature.ts'), 'utf8');
    // Type-only uses: erased before the code runs, so the hidden tests still pass and only type checking sees them.
    const probes = `/// <reference path="${SECRET_DTS}" />\n` +
      `export const pkg: number = null as unknown as typeof import('${join(ROOT, 'package.json')}');\n` +
      `export const secret: number = null as unknown as typeof import('../../../..${SECRET_JSON}');\n` +
      "export const passwd: number = null as unknown as typeof import('/etc/passwd');\n" +
      'export type Planted = typeof PLANTED_GLOBAL;\n';
    const res = await app.inject({ method: 'POST', url: '/grade', headers: { authorization: `Bearer ${KEY}` }, payload: { rubric: 'temperature', id: 'mallory', files: { 'temperature.ts': probes + reference } } });
    expect(res.statusCode).toBe(200);
    const report = ReportSchema.parse(res.json());
    expect(report.tests.every((t) => t.status === 'passed')).toBe(true);
    const typeErrors = report.evidence.items.filter((i) => i.kind === 'lint' && i.rule.startsWith('typescript/')).map((i) => (i.kind === 'lint' ? [i.rule, i.line, i.message] : null));
    expect(typeErrors).toEqual([
      ['typescript/TS6053', 1, `File '${SECRET_DTS}' not found.`],
      ['typescript/TS2307', 2, `Cannot find module '${join(ROOT, 'package.json')}' or its corresponding type declarations.`],
      ['typescript/TS2307', 3, `Cannot find module '../../../..${SECRET_JSON}' or its corresponding type declarations.`],
      ['typescript/TS2307', 4, "Cannot find module '/etc/passwd' or its corresponding type declarations."],
      ['typescript/TS2304', 5, "Cannot find name 'PLANTED_GLOBAL'."],
    ]);
    expect(res.body).not.toMatch(/hf_token_field|hf_planted_value|planted_key|planted-literal|devDependencies|"scripts"|root:x:0/);
    await app.close();
  });
});
