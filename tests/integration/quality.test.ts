// Issue 16: code that does nothing earns nothing. Graded for real (sandbox, lint, metrics), then checked
// by `verify`'s recomputation.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProcessBackendId } from '../../src/adapters/sandbox/registry.js';
import type { JudgeOutput } from '../../src/domain/judge.js';
import { checkReport } from '../../src/report/verify.js';
import { finalize } from '../../src/stages/judge/judgement.js';
import { firstBackend, gradeInline, inlineRubric } from '../helpers.js';

const TESTS = {
  't.test.js':
    "const { f } = require('./solution');\ntest('one', () => expect(f(1)).toBe(2));\ntest('two', () => expect(f(2)).toBe(4));\n",
};
const HALF = 'const f = (x) => (x === 1 ? 2 : 5);\nmodule.exports = { f };\n';
let backend: ProcessBackendId;
beforeAll(async () => {
  backend = await firstBackend();
});

describe('quality follows function (default: scaled)', () => {
  it.each([
    ['an empty file', ''],
    ['module.exports = 42', 'module.exports = 42;\n'],
    ['a wrong answer', 'const f = () => 0;\nmodule.exports = { f };\n'],
  ])('%s scores 0 overall: clean style and low complexity earn nothing when no test passes', async (_what, code) => {
    const r = await gradeInline(backend, inlineRubric(TESTS), { 'solution.js': code });
    expect(r.scores.deterministic).toMatchObject({ correctness: 0, style: 0, complexity: 0, total: 0 });
    expect(r.scores.quality).toMatchObject({ policy: 'scaled', factor: 0, measured: { style: 10, complexity: 10 } });
    expect(r.scores.basis).toContain('quality scaled: 0% of the weighted tests passed');
    expect(checkReport(r)).toEqual([]);
  });

  it('half the tests passed: half the quality credit; gated gives all of it; independent ignores the tests', async () => {
    const scaled = await gradeInline(backend, inlineRubric(TESTS), { 'solution.js': HALF });
    expect(scaled.scores.deterministic).toEqual({
      correctness: 5,
      edge_cases: null,
      style: 5,
      complexity: 5,
      total: 5,
    });
    const gated = await gradeInline(backend, inlineRubric(TESTS, { quality: 'gated' }), { 'solution.js': HALF });
    expect(gated.scores.deterministic).toMatchObject({ style: 10, complexity: 10 });
    expect(gated.rubric.quality).toBe('gated');
    const none = await gradeInline(backend, inlineRubric(TESTS, { quality: 'independent' }), { 'solution.js': '' });
    expect(none.scores.deterministic).toMatchObject({ correctness: 0, style: 10, complexity: 10 });
    for (const r of [scaled, gated, none]) expect(checkReport(r)).toEqual([]);
  });

  it("verify recomputes with the report's policy: a changed policy or raised credit is named", async () => {
    const r = await gradeInline(backend, inlineRubric(TESTS), { 'solution.js': HALF });
    const policy = structuredClone(r);
    policy.rubric.quality = 'independent';
    expect(checkReport(policy).map((d) => d.field)).toEqual(['scores.quality', 'scores.deterministic']);
    const raised = structuredClone(r);
    raised.scores.deterministic.style = 10;
    expect(checkReport(raised).map((d) => d.field)).toEqual(['scores.deterministic']);
    const legacy = structuredClone(r);
    delete legacy.rubric.quality;
    delete legacy.scores.quality;
    expect(checkReport(legacy).map((d) => d.field)).toEqual(['scores.deterministic']);
  });
});

describe('quality policy and the judge', () => {
  it("the judge's style and complexity are credited by the same factor: an honest 10 for clean code is not out of bounds, and the blend does not give back what the policy took", async () => {
    const r = await gradeInline(backend, inlineRubric(TESTS), { 'solution.js': HALF });
    const { judge: _j, scores, ...rest } = r;
    const det = {
      ...rest,
      scores: { deterministic: scores.deterministic, unmeasured: scores.unmeasured ?? [], quality: scores.quality },
    };
    const output = {
      scores: { correctness: 5, edge_cases: null, style: 10, complexity: 10 },
      claims: [],
      summary: 'ok',
    } as unknown as JudgeOutput;
    const j = {
      status: 'answered' as const,
      reason: 'ok',
      model: 'm',
      cached: false,
      attempts: [],
      output,
      priceIn: 0,
      priceOut: 0,
    };
    const out = finalize(det, j, inlineRubric(TESTS));
    expect(out.flags.filter((f) => f.code.startsWith('judge.'))).toEqual([]);
    expect(out.scores.llm).toMatchObject({ style: 5, complexity: 5 });
    expect(out.judge.output?.scores.style).toBe(10);
    expect(out.scores.final).toBe(5);
    expect(checkReport(out)).toEqual([]);
  });
});
