// evigrade audit on real sandboxes: a weak suite lets named wrong programs through, a strong one none; the report
// passes its schema and the field's shared format.
import { beforeAll, describe, expect, it } from 'vitest';
import { firstBackend, inlineRubric, inlineSubmission, sandboxFor } from '../helpers.js';
import { auditRubric } from '../../src/audit/run.js';
import { collectExpected, runHiddenTests } from '../../src/engine.js';
import { AuditReportSchema } from '../../src/domain/audit.js';
import type { Sandbox } from '../../src/adapters/sandbox/registry.js';
import { standardReport } from '../../src/audit/standard.js';
import { schema as standardSchema } from 'mutation-testing-report-schema';
import { calculateMutationTestMetrics } from 'mutation-testing-metrics';
// ajv (draft-07, as the shared schema is written) comes with the toolchain; only this test uses it.
import Ajv from 'ajv';

const LEAP_JS = 'export const isLeap = (year) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);\n';
const jsSuite = (years: [number, boolean][]): string =>
  `import { isLeap } from './solution';\n${years.map(([y, v]) => `test('${y}', () => { expect(isLeap(${y})).toBe(${v}); });`).join('\n')}\n`;

const LEAP_PY = 'def leap_year(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n';
const pySuite = (years: [number, boolean][]): string =>
  `from leap import leap_year\n\n${years.map(([y, v]) => `def test_${y}():\n    assert leap_year(${y}) is ${v ? 'True' : 'False'}\n`).join('\n')}`;

const STRONG: [number, boolean][] = [
  [2015, false],
  [1970, false],
  [1996, true],
  [1960, true],
  [2100, false],
  [1900, false],
  [2000, true],
  [2400, true],
  [1800, false],
];
const WEAK: [number, boolean][] = [
  [1996, true],
  [2015, false],
];

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor(await firstBackend());
}, 120_000);

const ports = () => ({ sandbox, concurrency: 2, now: () => new Date(0), tools: { test: '1' } });
const survivors = (r: Awaited<ReturnType<typeof auditRubric>>): string[] =>
  r.report.mutants
    .filter((m) => m.status === 'survived')
    .map((m) => `${m.column} ${m.operator}: ${m.original} → ${m.replacement}`);

describe('evigrade audit (JavaScript)', () => {
  const rubric = (years: [number, boolean][]) =>
    inlineRubric({ 'leap.spec.js': jsSuite(years) }, { audit: { repeats: 1, ignore: [] } });
  const ref = inlineSubmission({ 'solution.js': LEAP_JS }, 'reference');

  it('a strong suite kills every mutant StrykerJS makes of the reference', async () => {
    const r = await auditRubric(rubric(STRONG), ref, ports());
    expect(AuditReportSchema.parse(r.report)).toEqual(r.report);
    expect(r.report.counts).toEqual({ total: 15, killed: 15, survived: 0, timeout: 0, error: 0, ignored: 0 });
    expect(r.report.score).toBe(1);
    expect(r.report.flaky).toEqual([]);
  }, 300_000);

  it('a weak suite lets the century rules through, and the ignore list sets one aside', async () => {
    const weak = await auditRubric(rubric(WEAK), ref, ports());
    // 1996 and 2015 never reach the century rules: every wrong program there passes.
    expect(survivors(weak)).toEqual([
      '52 arithmetic: year % 100 → year * 100',
      '52 conditional: year % 100 !== 0 || year % 400 === 0 → true',
      '72 arithmetic: year % 400 → year * 400',
      '72 conditional: year % 400 === 0 → false',
      '72 equality: year % 400 === 0 → year % 400 !== 0',
    ]);
    const first = weak.report.mutants.find((m) => m.status === 'survived')!;
    const again = await auditRubric(
      inlineRubric(
        { 'leap.spec.js': jsSuite(WEAK) },
        { audit: { repeats: 1, ignore: [{ id: first.id, reason: 'accepted' }] } },
      ),
      ref,
      ports(),
    );
    // The shared format: valid against its own schema, and its metrics library computes the same score.
    const standard = standardReport(weak.report, weak.sources, weak.tests);
    const validate = new Ajv({ schemaId: 'auto' }).compile(standardSchema);
    expect(validate(standard) ? [] : validate.errors).toEqual([]);
    const metrics = calculateMutationTestMetrics(standard).systemUnderTestMetrics.metrics;
    expect(metrics.survived).toBe(weak.report.counts.survived);
    // Its score counts timeouts as detected: (killed + timeout) / (killed + timeout + survived).
    const c = weak.report.counts;
    expect(metrics.mutationScore / 100).toBeCloseTo((c.killed + c.timeout) / (c.killed + c.timeout + c.survived), 6);
    // Ids are stable across runs: the same mutant is found and ignored, the rest unchanged.
    expect(again.report.mutants.map((m) => m.id)).toEqual(weak.report.mutants.map((m) => m.id));
    expect(again.report.mutants.find((m) => m.id === first.id)).toMatchObject({
      status: 'ignored',
      ignoredBecause: 'accepted',
    });
    expect(again.report.counts.survived).toBe(weak.report.counts.survived - 1);
  }, 300_000);
});

describe('evigrade audit (Python)', () => {
  const rubric = (years: [number, boolean][]) =>
    inlineRubric(
      { 'leap_test.py': pySuite(years) },
      { language: 'python', entry: './leap.py', audit: { repeats: 1, ignore: [] } },
    );
  const ref = inlineSubmission({ 'leap.py': LEAP_PY }, 'reference');

  it('a strong suite kills every mutant of the reference', async () => {
    const r = await auditRubric(rubric(STRONG), ref, ports());
    expect(survivors(r)).toEqual([]);
    expect(r.report.counts.killed).toBe(r.report.counts.total);
  }, 300_000);

  it('a weak suite lets the century rules through', async () => {
    const r = await auditRubric(rubric(WEAK), ref, ports());
    expect(survivors(r)).toEqual([
      '36 arithmetic: % → *',
      '38 numeric: 100 → 99',
      '38 numeric: 100 → 101',
      '45 numeric: 0 → -1',
      '45 numeric: 0 → 1',
      '55 arithmetic: % → *',
      '57 numeric: 400 → 399',
      '57 numeric: 400 → 401',
      '61 equality: == → !=',
      '64 numeric: 0 → 1',
      '64 numeric: 0 → -1',
    ]);
    expect(r.report.score).toBeLessThan(1);
  }, 300_000);
});

describe('the harness’s early stop (payload.stopAtFirstFailure)', () => {
  const cases: {
    language: string;
    tests: Record<string, string>;
    files: Record<string, string>;
    spec: Record<string, unknown>;
  }[] = [
    {
      language: 'javascript',
      tests: {
        'a.spec.js':
          "import { f } from './solution';\ntest('one', () => expect(f()).toBe(2));\ntest('two', () => expect(f()).toBe(1));\n",
      },
      files: { 'solution.js': 'export const f = () => 1;\n' },
      spec: {},
    },
    {
      language: 'python',
      tests: {
        'f_test.py':
          'from f import f\n\ndef test_one():\n    assert f() == 2\n\ndef test_two():\n    assert f() == 1\n',
      },
      files: { 'f.py': 'def f():\n    return 1\n' },
      spec: { language: 'python', entry: './f.py' },
    },
  ];
  for (const c of cases) {
    it(`${c.language}: the tests after the first failure send nothing; without the flag every test reports`, async () => {
      const rubric = inlineRubric(c.tests, c.spec);
      const expected = await collectExpected(rubric, sandbox);
      const sub = inlineSubmission(c.files);
      const stopped = await runHiddenTests(
        sub,
        rubric,
        expected,
        { sandbox, maxResumes: 0 },
        { stopAtFirstFailure: true },
      );
      expect([...stopped.results.values()].map((r) => r.status)).toEqual(['failed']);
      const full = await runHiddenTests(sub, rubric, expected, { sandbox, maxResumes: 0 });
      expect([...full.results.values()].map((r) => r.status)).toEqual(['failed', 'passed']);
    }, 120_000);
  }
});
