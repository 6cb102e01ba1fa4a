// A submission that does not load is the student's error, said once: where in the student's own files and why,
// with no frame of the grader, no text of the hidden tests and no harness error (issue 31). Through the real
// sandbox, in each language, for a syntax error (in the entry and in a file it imports), a name the tests import
// that the submission does not define, an import of a module that does not exist, and a failing top-level call.
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/domain/report.js';
import { firstBackend, gradeInline, inlineRubric } from '../helpers.js';

const PY_TESTS = `from solution import total


def test_total():
    assert total([1, 2, 3]) == 6


def test_empty():
    assert total([]) == 0
`;
const JS_TESTS = `import { total } from './solution';
test('total', () => { expect(total([1, 2, 3])).toBe(6); });
test('empty', () => { expect(total([])).toBe(0); });
`;

const rubrics = {
  python: () => inlineRubric({ 'solution_test.py': PY_TESTS }, { language: 'python', limits: { timeout_ms: 20_000 } }),
  javascript: () => inlineRubric({ 'solution.test.js': JS_TESTS }),
  typescript: () => inlineRubric({ 'solution.test.ts': JS_TESTS }, { language: 'typescript' }),
};
type Lang = keyof typeof rubrics;

const SUM_JS = 'xs.reduce((a, b) => a + b, 0)';
/** Files, then the one load error the report must carry, and whether the tests ran (a missing export) or could not. */
const CASES: Record<Lang, Record<string, [Record<string, string>, string, 'ran' | 'not run']>> = {
  python: {
    syntax: [
      { 'solution.py': 'def total(xs)\n    return sum(xs)\n' },
      "solution.py, line 1: SyntaxError: expected ':'",
      'not run',
    ],
    nested_syntax: [
      {
        'solution.py': 'from helper import add\n\n\ndef total(xs):\n    return add(xs)\n',
        'helper.py': 'def add(xs):\n    return sum(xs\n',
      },
      "helper.py, line 2: SyntaxError: '(' was never closed",
      'not run',
    ],
    misnamed: [
      { 'solution.py': 'def sum_all(xs):\n    return sum(xs)\n' },
      'solution.py: the tests import total, which this file does not define (it defines sum_all)',
      'not run',
    ],
    missing_module: [
      { 'solution.py': '"""Totals."""\n\nimport helperz\n\n\ndef total(xs):\n    return sum(xs)\n' },
      "solution.py, line 3: ModuleNotFoundError: No module named 'helperz'",
      'not run',
    ],
    top_call: [
      { 'solution.py': 'def total(xs):\n    return sum(xs)\n\n\nsetup()\n' },
      "solution.py, line 5: NameError: name 'setup' is not defined",
      'not run',
    ],
  },
  javascript: {
    syntax: [
      { 'solution.js': `export function total(xs) {\n  return ${SUM_JS} +\n}\n` },
      'solution.js, line 3: SyntaxError: Unexpected token',
      'not run',
    ],
    nested_syntax: [
      {
        'solution.js': "const { add } = require('./helper');\nexports.total = (xs) => add(xs);\n",
        'helper.js': 'exports.add = (xs) => {\n  return xs.reduce((a, b) => a + b, 0\n};\n',
      },
      'helper.js, line 3: SyntaxError: missing ) after argument list',
      'not run',
    ],
    misnamed: [
      { 'solution.js': `export function sumAll(xs) {\n  return ${SUM_JS};\n}\n` },
      'solution.js: the tests import total, which this file does not export (it exports sumAll)',
      'ran',
    ],
    missing_module: [
      {
        'solution.js': `// Totals.\n\nimport { add } from './helperz';\nexport function total(xs) {\n  return add(xs);\n}\n`,
      },
      "solution.js, line 3: Error: Cannot find module './helperz'",
      'not run',
    ],
    top_call: [
      { 'solution.js': `export function total(xs) {\n  return ${SUM_JS};\n}\nsetupThings();\n` },
      'solution.js, line 4: TypeError: setupThings is not a function',
      'not run',
    ],
  },
  typescript: {
    syntax: [
      { 'solution.ts': `export function total(xs: number[]): number {\n  return ${SUM_JS} +\n}\n` },
      'solution.ts, line 3: SyntaxError: Unexpected token',
      'not run',
    ],
    nested_top_call: [
      {
        'solution.ts': "import { add } from './helper';\nexport const total = (xs: number[]): number => add(xs);\n",
        'helper.ts': `export const add = (xs: number[]): number => ${SUM_JS};\nconst config: { load(): void } = JSON.parse('{}');\nconfig.load();\n`,
      },
      'helper.ts, line 3: TypeError: config.load is not a function',
      'not run',
    ],
    misnamed: [
      { 'solution.ts': `export function sumAll(xs: number[]): number {\n  return ${SUM_JS};\n}\n` },
      'solution.ts: the tests import total, which this file does not export (it exports sumAll)',
      'ran',
    ],
    missing_module: [
      {
        'solution.ts': `// Totals.\nimport { add } from './helperz';\nexport function total(xs: number[]): number {\n  return add(xs);\n}\n`,
      },
      "solution.ts, line 2: Error: Cannot find module './helperz'",
      'not run',
    ],
    top_call: [
      { 'solution.ts': `export function total(xs: number[]): number {\n  return ${SUM_JS};\n}\nsetupThings();\n` },
      'solution.ts, line 4: TypeError: setupThings is not a function',
      'not run',
    ],
  },
};

/** Text only the grader or the hidden tests have: none of it may reach a student's error. */
const GRADER_TEXT =
  /\/evigrade\/|plugin\.py|host\.py|rpc\.py|boot\.py|<frozen|importlib|\.cjs|harness|Traceback|from solution import|expect\(total/;

function loadErrorOf(r: Report): { flag: string; event: string } {
  const flag = r.flags.filter((f) => f.code === 'submission.load_error');
  const events = r.sandbox.violations.filter((v) => v.event === 'load_error');
  expect(flag).toHaveLength(1);
  expect(events).toHaveLength(1);
  expect(flag[0]?.evidence).toEqual([events[0]?.id]);
  return { flag: flag[0]?.message ?? '', event: events[0]?.detail ?? '' };
}

describe('a submission that does not load: one student error, in its own file', () => {
  for (const [lang, cases] of Object.entries(CASES) as [Lang, (typeof CASES)[Lang]][]) {
    for (const [name, [files, said, ran]] of Object.entries(cases)) {
      it(`${lang}: ${name}`, async () => {
        const r = await gradeInline(await firstBackend(), rubrics[lang](), files);
        expect(r.status).toBe('graded');
        expect(loadErrorOf(r)).toEqual({ flag: said, event: said });
        // Nothing else happened in the sandbox: no crash, no incomplete job, no harness error.
        expect(r.sandbox.violations.map((v) => v.event)).toEqual(['load_error']);
        const where = said.slice(0, said.indexOf(': '));
        if (ran === 'not run') {
          expect(r.tests.map((t) => [t.status, t.message])).toEqual(
            r.tests.map(() => ['error', `not run: the submission did not load (${where})`]),
          );
        } else {
          expect(r.tests.map((t) => t.status)).toEqual(['failed', 'failed']);
          expect(r.tests.every((t) => t.message.startsWith('TypeError: total is not a function'))).toBe(true);
        }
        for (const text of [said, ...r.tests.map((t) => t.message.split('\n')[0] ?? '')])
          expect(text).not.toMatch(GRADER_TEXT);
        expect(r.scores.deterministic.correctness).toBe(0);
        // Generous: the first TypeScript case pays the type checker's start-up, minutes on a loaded machine.
      }, 180_000);
    }
  }

  it('an honest submission raises no load error (javascript, typescript and python)', async () => {
    const backend = await firstBackend();
    const honest: [Lang, Record<string, string>][] = [
      ['python', { 'solution.py': 'def total(xs):\n    return sum(xs)\n' }],
      ['javascript', { 'solution.js': `export function total(xs) {\n  return ${SUM_JS};\n}\n` }],
      ['typescript', { 'solution.ts': `export const total = (xs: number[]): number => ${SUM_JS};\n` }],
    ];
    for (const [lang, files] of honest) {
      const r = await gradeInline(backend, rubrics[lang](), files);
      expect({
        lang,
        statuses: r.tests.map((t) => t.status),
        flags: r.flags.map((f) => f.code),
        events: r.sandbox.violations,
      }).toEqual({
        lang,
        statuses: ['passed', 'passed'],
        flags: r.flags.map((f) => f.code).filter((c) => c !== 'submission.load_error'),
        events: [],
      });
    }
  }, 90_000);
});
