// The rubric's test_limits resolved per collected test (issue 33): the most specific selector wins, time and memory
// apart; tests with a memory limit of their own form jobs of their own; selectors naming nothing are reported.
import { describe, expect, it } from 'vitest';
import type { ExpectedTest } from '../../src/domain/queue.js';
import { limitGroups, payloadTimeouts, testLimitsOf, unknownLimitSelectors } from '../../src/stages/run/test-limits.js';
import { inlineRubric } from '../helpers.js';

const TESTS = {
  'tests/a.test.js':
    "describe('slow', () => { test('one', () => {}); test('two', () => {}); });\ntest('three', () => {});",
  'tests/b.test.js': "test('four', () => {});",
};
const expected: ExpectedTest[] = [
  { file: 'a.test.js', index: 0, path: ['slow', 'one'] },
  { file: 'a.test.js', index: 1, path: ['slow', 'two'] },
  { file: 'a.test.js', index: 2, path: ['three'] },
  { file: 'b.test.js', index: 0, path: ['four'] },
];
const rubric = (test_limits: Record<string, unknown>) =>
  inlineRubric(TESTS, { limits: { timeout_ms: 10_000, memory_mb: 256 }, test_limits });

describe('test_limits', () => {
  it('resolves each test by its most specific selector, time and memory apart', () => {
    const r = rubric({
      'tests/b.test.js': { time_ms: 300 },
      slow: { time_ms: 2000, memory_mb: 128 },
      'slow > two': { time_ms: 500 },
    });
    // The job names its files as siblings of the entry; the rubric lists them under tests/.
    const own = testLimitsOf(r, expected);
    expect(own).toEqual([{ time_ms: 2000, memory_mb: 128 }, { time_ms: 500, memory_mb: 128 }, {}, { time_ms: 300 }]);
    expect(payloadTimeouts(expected, own)).toEqual({ 'a.test.js': { 0: 2000, 1: 500 }, 'b.test.js': { 0: 300 } });
    const groups = limitGroups(expected, own, r.spec.limits);
    expect(groups.map((g) => [g.limits.memory_mb, g.tests.map((t) => t.path.join(' > '))])).toEqual([
      [256, ['three', 'four']],
      [128, ['slow > one', 'slow > two']],
    ]);
    expect(groups[1]?.limits).toEqual({ ...r.spec.limits, memory_mb: 128 });
  });

  it('without test_limits: one job with the rubric’s limits, no per-test timeouts in the payload', () => {
    const r = inlineRubric(TESTS);
    const own = testLimitsOf(r, expected);
    expect([own, payloadTimeouts(expected, own), limitGroups(expected, own, r.spec.limits).length]).toEqual([
      [{}, {}, {}, {}],
      undefined,
      1,
    ]);
  });

  it('names every selector that matches no test, group or test file', () => {
    const r = rubric({ slow: { time_ms: 100 }, 'slow > zero': { time_ms: 100 }, 'tests/c.test.js': { memory_mb: 64 } });
    expect(unknownLimitSelectors(r, expected)).toEqual([
      '"slow > zero" (in test_limits) matches no test, group or test file',
      '"tests/c.test.js" (in test_limits) matches no test, group or test file',
    ]);
  });
});
