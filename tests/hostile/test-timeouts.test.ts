// Timeouts explained (issue 33): a test that runs past its OWN limit (limits.test_timeout_ms, or the rubric's
// test_limits for that test or its group) is a timeout at that limit, named, with what it printed before, and the
// tests after it still run. A loop that never gives control back cannot be stopped from inside its process, so the
// grader stops it from outside (adapters/sandbox/test-watch.ts) and resumes the rest in a fresh job; on every backend,
// in JavaScript and in Python. Every loop here is genuinely infinite and every other test instant, so the verdicts
// are the same on a loaded machine: only how long the grading takes depends on the load.
import { describe, expect, it } from 'vitest';
import type { ProcessBackendId } from '../../src/adapters/sandbox/registry.js';
import { stoppedAtLimit } from '../../src/stages/run/attempts.js';
import type { Report } from '../../src/domain/report.js';
import { eventKinds, gradeInline, inlineRubric, isolatingBackends } from '../helpers.js';

const backends = (await isolatingBackends()).filter((b) => b.ok);
if (backends.length === 0) throw new Error('no isolating sandbox backend on this machine: install bubblewrap');

/** name → [status, message, output] for every test, in order. */
const outcomes = (r: Report) => r.tests.map((t) => [t.name, t.status, t.message, t.output ?? null]);
const out = (stdout: string, stderr = '') => ({ stdout, stderr, truncated: false });

const JS_TESTS = {
  'loop.test.js': `const { f } = require('./solution');
test('one', () => { expect(f(1)).toBe(1); });
test('two loops', () => { expect(f(2)).toBe(2); });
test('three', () => { expect(f(3)).toBe(3); });
describe('quick', () => {
  test('four loops', () => { expect(f(4)).toBe(4); });
  test('five', () => { expect(f(5)).toBe(5); });
});`,
  'node.test.js': `const { test } = require('node:test');
const assert = require('node:assert/strict');
const { f } = require('./solution');
test('six loops', () => { assert.equal(f(6), 6); });
test('seven', () => { assert.equal(f(7), 7); });`,
};
// Prints, then loops for ever without giving control back, for 2, 4 and 6.
const JS_SOLUTION = `module.exports = { f: (x) => {
  if (x % 2 === 0 && x > 0) { console.log('computing', x); console.error('no end for', x); while (true) {} }
  return x;
} };`;

const PY_TESTS = {
  'loop_test.py': `from solution import f, spin
def test_one(): assert f(1) == 1
def test_two_loops(): assert f(2) == 2
def test_three(): assert f(3) == 3
def test_four_loops(): assert spin(4) == 4
def test_five(): assert f(5) == 5
def test_six_hidden_loop():
    while True:
        pass
def test_seven(): assert f(7) == 7
`,
};
// A Python-level loop and a C-level one (sum over range(10**13) never returns in any test's limit), each after a print.
const PY_SOLUTION = `import sys
def f(x):
    if x == 2:
        print('computing', x)
        print('no end for', x, file=sys.stderr)
        while True:
            pass
    return x
def spin(x):
    print('summing', x)
    return sum(range(10**13))
`;

describe.each(backends.map((b) => b.id))('tests past their own limit (%s)', (backend: ProcessBackendId) => {
  it('JavaScript: each loop is a timeout at its own limit, with its output, and the tests after it run', async () => {
    const rubric = inlineRubric(JS_TESTS, {
      limits: { timeout_ms: 60_000, test_timeout_ms: 1000 },
      // A group's own limit, and one test's; the node:test test (no timeout of its own) takes the rubric's.
      test_limits: { quick: { time_ms: 600 }, 'two loops': { time_ms: 800 } },
    });
    const r = await gradeInline(backend, rubric, { 'solution.js': JS_SOLUTION });
    expect(outcomes(r)).toEqual([
      ['one', 'passed', '', null],
      ['two loops', 'timeout', stoppedAtLimit(800), out('computing 2\n', 'no end for 2\n')],
      ['three', 'passed', '', null],
      ['quick > four loops', 'timeout', stoppedAtLimit(600), out('computing 4\n', 'no end for 4\n')],
      ['quick > five', 'passed', '', null],
      ['six loops', 'timeout', stoppedAtLimit(1000), out('computing 6\n', 'no end for 6\n')],
      ['seven', 'passed', '', null],
    ]);
    expect([r.sandbox.runs, eventKinds(r)]).toEqual([
      4,
      ['timeout', 'resumed', 'timeout', 'resumed', 'timeout', 'resumed'],
    ]);
    expect(r.tests.filter((t) => t.status === 'timeout').map((t) => t.durationMs)).toEqual([800, 600, 1000]);
  });

  it('JavaScript: past limits.total_timeout_ms, the tests not yet run are not resumed', async () => {
    const rubric = inlineRubric(JS_TESTS, {
      limits: { timeout_ms: 60_000, test_timeout_ms: 700, total_timeout_ms: 1400 },
    });
    const r = await gradeInline(backend, rubric, { 'solution.js': JS_SOLUTION });
    const notRun =
      "not run: the tests stopped at their own time limit used up the submission's 1400 ms budget for them (limits.total_timeout_ms)";
    expect(outcomes(r).map(([name, status, message]) => [name, status, message])).toEqual([
      ['one', 'passed', ''],
      ['two loops', 'timeout', stoppedAtLimit(700)],
      ['three', 'passed', ''],
      ['quick > four loops', 'timeout', stoppedAtLimit(700)],
      ['quick > five', 'error', notRun],
      ['six loops', 'error', notRun],
      ['seven', 'error', notRun],
    ]);
    expect(r.sandbox.runs).toBe(2);
  });

  it('Python: loops in the submission stop at the test’s own limit with their prints; one in the test process is stopped from outside', async () => {
    const rubric = inlineRubric(PY_TESTS, {
      language: 'python',
      entry: './solution.py',
      limits: { timeout_ms: 60_000, test_timeout_ms: 1000 },
      test_limits: { 'loop_test.py::test_four_loops': { time_ms: 600 } },
    });
    const r = await gradeInline(backend, rubric, { 'solution.py': PY_SOLUTION });
    const own = (ms: number) => `Exceeded timeout of ${ms} ms for a test (counted in the submission's own time).`;
    expect(outcomes(r)).toEqual([
      ['loop_test.py::test_one', 'passed', '', null],
      ['loop_test.py::test_two_loops', 'timeout', own(1000), out('computing 2\n', 'no end for 2\n')],
      ['loop_test.py::test_three', 'passed', '', null],
      ['loop_test.py::test_four_loops', 'timeout', own(600), out('summing 4\n')],
      ['loop_test.py::test_five', 'passed', '', null],
      ['loop_test.py::test_six_hidden_loop', 'timeout', stoppedAtLimit(1000), null],
      ['loop_test.py::test_seven', 'passed', '', null],
    ]);
    expect([r.sandbox.runs, eventKinds(r)]).toEqual([2, ['timeout', 'resumed']]);
  });

  it('a memory limit of its own: that test runs in a job of its own with it, the others keep the rubric’s', async () => {
    // 160 MB of Buffers: more than the 128 MB job of "small" allows, well within the rubric's 512 MB.
    const tests = {
      'mem.test.js': `const { grow } = require('./solution');
test('big', () => { expect(grow()).toBe(160); });
test('small', () => { expect(grow()).toBe(160); });
test('after', () => { expect(1).toBe(1); });`,
    };
    const rubric = inlineRubric(tests, {
      limits: { timeout_ms: 20_000, memory_mb: 512 },
      test_limits: { small: { memory_mb: 128 } },
    });
    const solution = `module.exports = { grow: () => { const keep = []; for (let i = 0; i < 160; i++) keep.push(new Uint8Array(1 << 20).fill(1)); return keep.length; } };`;
    const r = await gradeInline(backend, rubric, { 'solution.js': solution });
    expect(outcomes(r).map(([name, status, message]) => [name, status, message])).toEqual([
      ['big', 'passed', ''],
      ['small', 'error', 'killed: the memory limit (128 MB) was exceeded while this test ran'],
      ['after', 'passed', ''],
    ]);
    expect(r.sandbox.runs).toBe(2);
  });
});
