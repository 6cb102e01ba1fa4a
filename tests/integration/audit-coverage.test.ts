// The reference's lines no hidden test runs, measured in the sandbox (V8's block coverage in the JavaScript harness,
// line tracing in the Python submission process), and told apart in the audit from lines that run but whose
// mutants survive.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { firstBackend, inlineRubric, inlineSubmission, sandboxFor } from '../helpers.js';
import { collectExpected, runWithCoverage } from '../../src/engine.js';
import { measureCoverage } from '../../src/audit/coverage.js';
import { auditRubric } from '../../src/audit/run.js';
import { auditHtml } from '../../src/audit/html.js';
import type { Sandbox } from '../../src/adapters/sandbox/registry.js';
import type { SandboxJob } from '../../src/domain/sandbox.js';
import { JOB_PERMISSIONS, jobPermissions } from '../../src/adapters/sandbox/process-runner.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor(await firstBackend());
}, 120_000);

// Line 3's branch (a negative number) and line 7's function are never reached by the tests below. A function
// declaration is hoisted, no statement of its own: line 1 counts through its body, line 7 through `return 1`.
const SIGN_JS = [
  'function sign(n) {', //                      1
  '  if (n < 0) {', //                          2
  "    return 'negative';", //                  3
  '  }', //                                     4
  "  return n === 0 ? 'zero' : 'positive';", // 5
  '}', //                                       6
  'function unused() { return 1; }', //         7
  'module.exports = { sign, unused };', //      8
  '',
].join('\n');
const SIGN_ESM = SIGN_JS.replace('module.exports = { sign, unused };', 'export { sign, unused };');
const jsTests =
  "import { sign } from './sign';\ntest('zero', () => expect(sign(0)).toBe('zero'));\ntest('five', () => expect(sign(5)).toBe('positive'));\n";

const SIGN_PY = [
  'def sign(n):', //                      1
  '    """The sign of n, as a word."""', // 2
  '    if n < 0:', //                      3
  "        return 'negative'", //          4
  "    return 'zero' if n == 0 else 'positive'", // 5
  '', //                                   6
  '', //                                   7
  'def unused():', //                      8
  '    return 1', //                       9
  '',
].join('\n');
const pyTests =
  "from sign import sign\n\ndef test_zero():\n    assert sign(0) == 'zero'\n\ndef test_five():\n    assert sign(5) == 'positive'\n";

// TypeScript runs type-stripped: the interface and the type alias (lines 1-5) leave no JavaScript, so the emitted
// lines are numbered differently from these; the coverage is of these lines. Line 9's branch and line 14 never run.
const SIGN_TS = [
  'export interface Reading {', //                                1
  '  value: number;', //                                           2
  "  unit: 'C' | 'F';", //                                         3
  '}', //                                                          4
  "type Word = 'negative' | 'zero' | 'positive';", //              5
  '', //                                                           6
  'export function sign(r: Reading): Word {', //                   7
  '  if (r.value < 0) {', //                                       8
  "    return 'negative';", //                                     9
  '  }', //                                                        10
  "  const word: Word = r.value === 0 ? 'zero' : 'positive';", // 11
  '  return word;', //                                             12
  '}', //                                                          13
  'export function unused(): number { return 1; }', //             14
  '',
].join('\n');
const tsTests =
  "import { sign } from './sign';\ntest('zero', () => expect(sign({ value: 0, unit: 'C' })).toBe('zero'));\n" +
  "test('five', () => expect(sign({ value: 5, unit: 'F' })).toBe('positive'));\n";
const here = (p: string) => readFileSync(fileURLToPath(new URL(`../../${p}`, import.meta.url)), 'utf8');

describe('line coverage of the reference', () => {
  it("TypeScript: V8's ranges are mapped back to the source's lines through the transpile's source map", async () => {
    const rubric = inlineRubric({ 'sign.spec.ts': tsTests }, { language: 'typescript', entry: './sign' });
    const expected = await collectExpected(rubric, sandbox);
    const cov = await measureCoverage(rubric, inlineSubmission({ 'sign.ts': SIGN_TS }), expected, sandbox);
    expect(cov.note).not.toContain('not mapped');
    expect(cov.lines).toEqual({ 'sign.ts': { executable: [8, 9, 11, 12, 14], covered: [8, 11, 12] } });
  }, 120_000);

  it('TypeScript (the temperature rubric): every statement line of the reference runs; type-only lines are none', async () => {
    const rubric = inlineRubric(
      { 'temperature.spec.ts': here('rubrics/temperature/tests/temperature.spec.ts') },
      { language: 'typescript', entry: './temperature' },
    );
    const expected = await collectExpected(rubric, sandbox);
    const ref = inlineSubmission({ 'temperature.ts': here('rubrics/temperature/reference/temperature.ts') });
    const cov = await measureCoverage(rubric, ref, expected, sandbox);
    // Line 1 (`export type Scale`) leaves no code; the object literals' arrow bodies are expressions, no statements.
    const lines = [3, 8, 15, 16, 17];
    expect(cov.lines).toEqual({ 'temperature.ts': { executable: lines, covered: lines } });
  }, 120_000);

  // An ES module's `export { … }` list is no statement once the harness runs it (its bindings are made on line 1).
  for (const [name, source, statements] of [
    ['CommonJS', SIGN_JS, [8]],
    ['an ES module', SIGN_ESM, []],
  ] as const) {
    it(`JavaScript (${name}): the branch and the function no test reaches are the uncovered lines`, async () => {
      const rubric = inlineRubric({ 'sign.spec.js': jsTests }, { entry: './sign' });
      const expected = await collectExpected(rubric, sandbox);
      const cov = await measureCoverage(rubric, inlineSubmission({ 'sign.js': source }), expected, sandbox);
      expect(cov.measured).toBe(true);
      expect(cov.lines).toEqual({
        'sign.js': { executable: [2, 3, 5, 7, ...statements], covered: [2, 5, ...statements] },
      });
    }, 120_000);
  }

  it('Python: the branch and the body no test reaches are the uncovered lines (a docstring is no statement)', async () => {
    const rubric = inlineRubric({ 'sign_test.py': pyTests }, { language: 'python', entry: './sign.py' });
    const expected = await collectExpected(rubric, sandbox);
    const cov = await measureCoverage(rubric, inlineSubmission({ 'sign.py': SIGN_PY }), expected, sandbox);
    expect(cov.measured).toBe(true);
    expect(cov.lines).toEqual({ 'sign.py': { executable: [1, 3, 4, 5, 8, 9], covered: [1, 3, 5, 8] } });
  }, 120_000);

  it("the coverage run keeps the reference's verdicts and names files as the submission does", async () => {
    const rubric = inlineRubric({ 'sign.spec.js': jsTests }, { entry: './sign' });
    const expected = await collectExpected(rubric, sandbox);
    const measured = await runWithCoverage(inlineSubmission({ 'sign.js': SIGN_JS }), rubric, expected, sandbox);
    expect([...measured.state.results.values()].map((r) => r.status)).toEqual(['passed', 'passed']);
    expect(measured.files.map((f) => f.file)).toEqual(['sign.js']);
    expect(measured.errors).toEqual([]);
  }, 120_000);

  it("only the audit's coverage run leaves Node's permission model off (a graded job always has it)", () => {
    const job = { payload: { mode: 'run' } } as Pick<SandboxJob, 'payload'>;
    expect(jobPermissions(job)).toEqual(JOB_PERMISSIONS);
    expect(JOB_PERMISSIONS[0]).toBe('--experimental-permission');
    expect(jobPermissions({ payload: { ...job.payload, coverage: true } } as Pick<SandboxJob, 'payload'>)).toEqual([]);
  });
});

describe('the audit tells never-run lines from lines run but not checked', () => {
  it('JavaScript: the negative branch and the unused function never run; the tests run line 2 and accept `false` for its condition', async () => {
    const rubric = inlineRubric({ 'sign.spec.js': jsTests }, { entry: './sign', audit: { repeats: 1, ignore: [] } });
    const r = await auditRubric(rubric, inlineSubmission({ 'sign.js': SIGN_JS }, 'reference'), {
      sandbox,
      concurrency: 2,
      now: () => new Date(0),
      tools: {},
    });
    expect(r.report.uncovered).toEqual([
      { file: 'sign.js', line: 3 },
      { file: 'sign.js', line: 7 },
    ]);
    expect(r.report.coverage).toMatchObject({ measured: true, linesTotal: 5, linesCovered: 3 });
    const alive = r.report.mutants.filter((m) => m.status === 'survived');
    // Survivors on lines no test runs, and on line 2, which the tests run: `n < 0` → false passes both tests.
    expect(
      alive.map((m) => `${m.line} ${String(m.covered)}: ${m.original.replace(/\s+/g, ' ')} → ${m.replacement}`),
    ).toEqual([
      '2 true: n < 0 → false',
      "2 true: { return 'negative'; } → {}",
      `3 false: 'negative' → ""`,
      '7 false: { return 1; } → {}',
    ]);
    expect(r.report.coverage.files).toEqual([
      { file: 'sign.js', linesTotal: 5, linesCovered: 3, uncovered: [3, 7], survivedCovered: [2] },
    ]);
    const html = auditHtml(r.report, r.sources);
    expect(html).toContain('<div class="uncov"><span class="ln">3</span>    return &#39;negative&#39;;</div>');
    expect(html).toContain('<div class="weak"><span class="ln">2</span>  if (n &lt; 0) {</div>');
    expect(html).toContain('tests run this line but accept the change');
  }, 300_000);
});
