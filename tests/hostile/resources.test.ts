// Resource abuse ends as evidence on the test that caused it; the other tests still count.
import { describe, expect, it } from 'vitest';
import type { ProcessBackendId } from '../../src/adapters/sandbox/registry.js';
import { eventKinds, gradeInline, inlineRubric, isolatingBackends, statuses } from '../helpers.js';

// Every hostile case runs against every backend that can isolate here.
const backends = (await isolatingBackends()).filter((b) => b.ok);
if (backends.length === 0) throw new Error('no isolating sandbox backend on this machine: install bubblewrap');

const TESTS = {
  'r.test.js': `const { f } = require('./solution');
test('one', () => { expect(f(1)).toBe(1); });
test('two', () => { expect(f(2)).toBe(2); });
test('three', () => { expect(f(3)).toBe(3); });`,
};
const limits = { limits: { timeout_ms: 1500 } };

describe.each(backends.map((b) => b.id))('resource abuse (%s)', (backend: ProcessBackendId) => {
  it('a synchronous infinite loop in one test: that test times out, the job is re-run for the rest', async () => {
    const r = await gradeInline(backend, inlineRubric(TESTS, limits), {
      'solution.js': 'module.exports = { f: (x) => { if (x === 2) for (;;) {} return x; } };',
    });
    expect(statuses(r)).toEqual({ one: 'passed', two: 'timeout', three: 'passed' });
    expect([eventKinds(r), r.sandbox.runs]).toEqual([['timeout', 'resumed'], 2]);
    expect(r.tests[1]?.message).toContain('killed: the job exceeded its 1500 ms time limit while this test ran');
  });

  it('an infinite loop at import: every test fails, with the timeout as evidence', async () => {
    const r = await gradeInline(backend, inlineRubric(TESTS, limits), {
      'solution.js': 'for (;;) {}\nmodule.exports = { f: (x) => x };',
    });
    expect(statuses(r)).toEqual({ one: 'error', two: 'error', three: 'error' });
    expect([eventKinds(r), r.sandbox.runs]).toEqual([['timeout'], 1]);
  });

  it('a memory hog in one test is charged to that test only', async () => {
    const sol =
      'module.exports = { f: (x) => { if (x === 3) { const a = []; for (;;) a.push(new Array(1e6).fill(x)); } return x; } };';
    const r = await gradeInline(backend, inlineRubric(TESTS, { limits: { timeout_ms: 8000, memory_mb: 128 } }), {
      'solution.js': sol,
    });
    expect(statuses(r)).toEqual({ one: 'passed', two: 'passed', three: 'error' });
    expect(eventKinds(r)).toEqual(['memory_limit']);
  });

  it('a never-settling promise hits the per-test timeout like Jest, not the job limit', async () => {
    const asyncTests = {
      'a.test.js':
        "const { f } = require('./solution');\ntest('one', async () => { expect(await f(1)).toBe(1); });\ntest('two', async () => { expect(await f(2)).toBe(2); });",
    };
    const r = await gradeInline(
      backend,
      inlineRubric(asyncTests, { limits: { timeout_ms: 5000, test_timeout_ms: 300 } }),
      { 'solution.js': 'module.exports = { f: (x) => (x === 1 ? new Promise(() => {}) : x) };' },
    );
    expect([statuses(r), eventKinds(r), r.sandbox.runs]).toEqual([{ one: 'timeout', two: 'passed' }, [], 1]);
    expect(r.tests[0]?.message).toContain('Exceeded timeout of 300 ms for a test');
  });
});
