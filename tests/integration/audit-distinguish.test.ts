// Telling survivors apart: inputs near the hidden tests' own arguments (fast-check) tried on the reference and each
// surviving mutant in the sandbox; the first disagreement becomes a test the instructor could add, and a survivor
// that agrees on the whole budget is "possibly equivalent".
import { beforeAll, describe, expect, it } from 'vitest';
import { firstBackend, inlineRubric, inlineSubmission, sandboxFor } from '../helpers.js';
import { auditRubric } from '../../src/audit/run.js';
import { collectExpected, runHiddenTests } from '../../src/engine.js';
import { candidates, seedsOf } from '../../src/audit/seeds.js';
import { searchOf } from '../../src/audit/distinguish.js';
import { pySeedsOf } from '../../src/audit/py-probe.js';
import type { Sandbox } from '../../src/adapters/sandbox/registry.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor(await firstBackend());
}, 120_000);
const ports = () => ({ sandbox, concurrency: 2, now: () => new Date(0), tools: {} });

const LEAP_JS = 'export const isLeap = (year) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);\n';
const leap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const WEAK_TESTS =
  "import { isLeap } from './solution';\ntest('1996', () => { expect(isLeap(1996)).toBe(true); });\ntest('2015', () => { expect(isLeap(2015)).toBe(false); });\n";

describe('seeds and candidates', () => {
  it("reads the literal arguments of the tests' calls, and samples the same inputs every time", () => {
    const src = `import { f, g } from './x';\ntest('a', () => { expect(f(-3, 'ab', [1, {k: true}])).toBe(1); expect(g(h(2))).toBe(0); expect(f(-3, 'ab', [1, {k: true}])).toBe(1); });\n`;
    expect(seedsOf([src])).toEqual([{ fn: 'f', args: [-3, 'ab', [1, { k: true }]] }]);
    const a = candidates(seedsOf([src]), 50);
    expect(a).toHaveLength(50);
    expect(a[0]).toEqual({ fn: 'f', args: [-3, 'ab', [1, { k: true }]] });
    expect(candidates(seedsOf([src]), 50)).toEqual(a);
    expect(new Set(a.map((s) => JSON.stringify(s.args))).size).toBe(50);
  });

  it('reads CommonJS requires and names bound to literals (a beforeEach assignment too)', () => {
    const src = `const { sum } = require('./m');\nlet grid;\nbeforeEach(() => { grid = [[1, 2], [3]]; });\ntest('a', () => { expect(sum(grid)).toBe(6); expect(sum(other)).toBe(0); });\n`;
    expect(seedsOf([src])).toEqual([{ fn: 'sum', args: [[[1, 2], [3]]] }]);
  });

  it("reads the probe's answer: a disagreement, none, or no answer", () => {
    const inputs = [{ fn: 'isLeap', args: [1900] }];
    expect(
      searchOf('m-1', inputs, {
        status: 'failed',
        message: 'Error: EVIGRADE_DIFF [0,"false","true",false,false]\n    at x',
      }),
    ).toEqual({
      kind: 'found',
      found: {
        mutant: 'm-1',
        function: 'isLeap',
        input: '1900',
        reference: 'false',
        mutantOutput: 'true',
        test: "test('isLeap(1900)', () => {\n  expect(isLeap(1900)).toEqual(false);\n});",
      },
    });
    // Both throw, with other messages: the suggested test pins the reference's message.
    const thrown = searchOf('m-2', inputs, {
      status: 'failed',
      message: 'Error: EVIGRADE_DIFF [0,"throws bad year: 1900","throws ",true,true]',
    });
    expect(thrown.kind === 'found' && thrown.found.test).toBe(
      'test(\'isLeap rejects 1900\', () => {\n  expect(() => isLeap(1900)).toThrow("bad year: 1900");\n});',
    );
    expect(searchOf('m-1', inputs, { status: 'passed', message: '' })).toEqual({ kind: 'none' });
    expect(searchOf('m-1', inputs, { status: 'timeout', message: 'Exceeded timeout' })).toEqual({
      kind: 'unknown',
      why: 'the probe timeout: Exceeded timeout',
    });
  });
});

describe('evigrade audit: distinguishing inputs (JavaScript)', () => {
  it('finds, for every survivor of the weak leap suite, a year on which it and the reference disagree', async () => {
    const rubric = inlineRubric({ 'leap.spec.js': WEAK_TESTS }, { audit: { repeats: 1, ignore: [] } });
    const r = await auditRubric(rubric, inlineSubmission({ 'solution.js': LEAP_JS }, 'reference'), ports());
    const alive = r.report.mutants.filter((m) => m.status === 'survived');
    expect(alive).toHaveLength(5);
    expect(r.report.distinguishing.map((d) => d.mutant)).toEqual(alive.map((m) => m.id));
    expect(alive.map((m) => m.possiblyEquivalent)).toEqual([false, false, false, false, false]);
    for (const d of r.report.distinguishing) {
      const year = Number(d.input);
      // The reference's output is the true answer for that year, and the mutant's is the other one.
      expect([d.function, d.reference, d.mutantOutput]).toEqual(['isLeap', String(leap(year)), String(!leap(year))]);
      expect(d.test).toBe(`test('isLeap(${year})', () => {\n  expect(isLeap(${year})).toEqual(${leap(year)});\n});`);
    }
    expect(r.report.notes[0]).toMatch(
      /^distinguishing inputs: per surviving mutant one sandboxed job tries \d+ argument lists \(up to 100 per function of isLeap:/,
    );
  }, 300_000);

  it('a survivor that agrees with the reference on every input of the budget is possibly equivalent', async () => {
    const rubric = inlineRubric(
      {
        'clamp.spec.js':
          "import { clamp } from './solution';\ntest('5', () => expect(clamp(5)).toBe(5));\ntest('-3', () => expect(clamp(-3)).toBe(0));\n",
      },
      { audit: { repeats: 1, ignore: [] } },
    );
    const ref = inlineSubmission({ 'solution.js': 'export const clamp = (x) => (x < 0 ? 0 : x);\n' }, 'reference');
    const r = await auditRubric(rubric, ref, ports());
    // x <= 0 returns the literal 0 where x < 0 returns x itself, 0: no number tells them apart.
    expect(
      r.report.mutants
        .filter((m) => m.status === 'survived')
        .map((m) => [m.original, m.replacement, m.possiblyEquivalent]),
    ).toEqual([['x < 0', 'x <= 0', true]]);
    expect(r.report.distinguishing).toEqual([]);
  }, 300_000);
});

// `score >= 90` and `score >= 50` are tested only away from their boundaries; the last test, `score < 50`, always
// holds where it is reached (every score below 50), so its own mutants cannot change a result.
const GRADE_PY = [
  'def grade(score):',
  '    if score >= 90:',
  "        return 'A'",
  '    if score >= 50:',
  "        return 'pass'",
  '    if score < 50:',
  "        return 'fail'",
  '',
].join('\n');
const gradeOf = (s: number, a = 90, p = 50): string => (s >= a ? 'A' : s >= p ? 'pass' : 'fail');
const PY_TESTS =
  "from grade import grade\n\n\ndef test_a():\n    assert grade(95) == 'A'\n\n\ndef test_pass():\n    assert grade(70) == 'pass'\n\n\ndef test_fail():\n    assert grade(10) == 'fail'\n";

describe('evigrade audit: distinguishing inputs (Python)', () => {
  it("reads the literal arguments of the tests' calls of the entry module's functions", async () => {
    const src = [
      'import grade as g',
      'from grade import grade as gr, other',
      'from helpers import grade as not_ours',
      '',
      'def test_x():',
      "    assert gr(-3, 'ab', [1, (2, 3)], {'k': True, 'n': None}) == 1",
      '    assert g.other(2.5) == 0',
      '    assert gr(x) == 0',
      '    assert gr(1, key=2) == 0',
      "    assert gr(b'x') == 0",
      '    assert not_ours(7) == 0',
      "    assert gr(-3, 'ab', [1, (2, 3)], {'k': True, 'n': None}) == 1",
      '',
    ].join('\n');
    expect(await pySeedsOf([src], 'grade')).toEqual([
      { fn: 'grade', args: [-3, 'ab', [1, [2, 3]], { k: true, n: null }] },
      { fn: 'other', args: [2.5] },
    ]);
  });

  it("reads the probe's answer as a pytest test: an exception pinned by its type and message", () => {
    const inputs = [{ fn: 'parse', args: ['1.5', null, true] }];
    const msg = `AssertionError: EVIGRADE_DIFF [0, "raises ValueError: bad (1.5)", "raises Exception: bad (1.5)", true, true, "ValueError", "bad (1.5)"]`;
    const r = searchOf('m-3', inputs, { status: 'failed', message: msg }, true);
    expect(r.kind === 'found' && [r.found.input, r.found.test]).toEqual([
      '"1.5", None, True',
      'import pytest\n\n\ndef test_parse_raises_1_5_None_True():\n    with pytest.raises(ValueError, match="^bad \\\\(1\\\\.5\\\\)$"):\n        parse("1.5", None, True)\n',
    ]);
  });

  it('a boundary the suite misses gets an input that tells it apart; an always-true condition is possibly equivalent', async () => {
    const rubric = inlineRubric(
      { 'test_grade.py': PY_TESTS },
      { language: 'python', entry: './grade.py', audit: { repeats: 1, ignore: [] } },
    );
    const r = await auditRubric(rubric, inlineSubmission({ 'grade.py': GRADE_PY }, 'reference'), ports());
    const alive = r.report.mutants.filter((m) => m.status === 'survived');
    const verdict = (line: number, original: string, replacement: string) =>
      alive.find((m) => m.line === line && m.original === original && m.replacement === replacement)
        ?.possiblyEquivalent;
    // The boundary at 90: the search tries 85..105 (near the test's 95) and tells all three mutants apart.
    expect([verdict(2, '>=', '>'), verdict(2, '90', '91'), verdict(2, '90', '89')]).toEqual([false, false, false]);
    // `score < 50` is reached only below 50: always true there, so no input tells its mutants apart.
    expect([verdict(6, 'score < 50', 'True'), verdict(6, '<', '<='), verdict(6, '50', '51')]).toEqual([
      true,
      true,
      true,
    ]);
    const models: Record<string, (s: number) => string> = {
      '>': (s) => (s > 90 ? 'A' : s >= 50 ? 'pass' : 'fail'),
      '91': (s) => gradeOf(s, 91),
      '89': (s) => gradeOf(s, 89),
    };
    for (const d of r.report.distinguishing) {
      const m = alive.find((x) => x.id === d.mutant)!;
      const score = Number(d.input);
      expect([d.function, d.reference, d.mutantOutput]).toEqual([
        'grade',
        `'${gradeOf(score)}'`,
        `'${models[m.replacement]!(score)}'`,
      ]);
      expect(d.test).toBe(`def test_grade_${score}():\n    assert grade(${score}) == '${gradeOf(score)}'\n`);
    }
    expect(r.report.notes[0]).toMatch(/compared with Python's == \(an exception by its type and message/);
    // The pytest test the report suggests passes on the reference and fails on the mutant, in the sandbox.
    const found = r.report.distinguishing.find((d) => alive.find((m) => m.id === d.mutant)?.replacement === '>')!;
    const added = inlineRubric(
      { 'test_added.py': `from grade import grade\n\n\n${found.test}` },
      { language: 'python', entry: './grade.py' },
    );
    const expected = await collectExpected(added, sandbox);
    const statusOn = async (source: string) => {
      const state = await runHiddenTests(inlineSubmission({ 'grade.py': source }), added, expected, {
        sandbox,
        maxResumes: 0,
      });
      return [...state.results.values()].map((t) => t.status);
    };
    expect(await statusOn(GRADE_PY)).toEqual(['passed']);
    expect(await statusOn(GRADE_PY.replace('score >= 90', 'score > 90'))).toEqual(['failed']);
  }, 300_000);

  it("an object of the reference's class is never compared with the mutant's: no answer, not a false input", async () => {
    const rubric = inlineRubric(
      { 'test_box.py': 'from box import make\n\n\ndef test_make():\n    assert make(3).v == 3\n' },
      { language: 'python', entry: './box.py', audit: { repeats: 1, ignore: [] } },
    );
    const source =
      'class Box:\n    def __init__(self, v):\n        self.v = v\n\n\ndef make(v):\n    return Box(v + 0)\n';
    const r = await auditRubric(rubric, inlineSubmission({ 'box.py': source }, 'reference'), ports());
    // `v + 0` → `v - 0` survives; the two modules' Box instances are never ==, so no input is reported.
    const alive = r.report.mutants.filter((m) => m.status === 'survived');
    expect(alive.map((m) => [m.original, m.replacement, m.possiblyEquivalent])).toEqual([['+', '-', null]]);
    expect(r.report.distinguishing).toEqual([]);
  }, 300_000);
});
