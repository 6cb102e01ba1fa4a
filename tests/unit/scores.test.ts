import { describe, expect, it } from 'vitest';
import type { TestResult } from '../../src/domain/report.js';
import { deterministicScores, passScore } from '../../src/stages/score/scores.js';
import { CriteriaSchema } from '../../src/domain/rubric.js';

const t = (status: TestResult['status'], weight = 1, edgeCase = false): TestResult => ({
  id: 'T1',
  name: 'n',
  path: ['n'],
  file: 'f',
  status,
  durationMs: 0,
  message: '',
  weight,
  edgeCase,
});
const criteria = CriteriaSchema.parse({ correctness: 0.6, edge_cases: 0.2, style: 0.1, complexity: 0.1 });
const none = { style: null, complexity: null };

describe('passScore', () => {
  it.each([
    ['all pass', [t('passed'), t('passed')], 10],
    ['half', [t('passed'), t('failed')], 5],
    ['weights count', [t('passed', 3), t('failed', 1)], 7.5],
    ['skipped tests do not count', [t('passed'), t('skipped')], 10],
    ['timeouts and errors fail', [t('passed'), t('timeout'), t('error')], 3.33],
    ['nothing counted', [t('skipped')], null],
    ['empty', [], null],
  ] as const)('%s', (_name, tests, expected) => {
    expect(passScore(tests)).toBe(expected);
  });
});

describe('deterministicScores', () => {
  it('renormalises over measured criteria (style and complexity not measured)', () => {
    const tests = [t('passed'), t('failed'), t('passed', 1, true), t('passed', 1, true)];
    expect(deterministicScores(tests, criteria, none)).toEqual({
      correctness: 5,
      edge_cases: 10,
      style: null,
      complexity: null,
      total: 6.25,
    });
  });
  it('uses correctness alone when there are no edge-case tests', () => {
    expect(deterministicScores([t('passed'), t('failed', 3)], criteria, none)).toEqual({
      correctness: 2.5,
      edge_cases: null,
      style: null,
      complexity: null,
      total: 2.5,
    });
  });
  it('includes measured style and complexity with their weights', () => {
    // (0.6×10 + 0.1×5 + 0.1×0) / 0.8 = 8.125
    expect(deterministicScores([t('passed')], criteria, { style: 5, complexity: 0 })).toEqual({
      correctness: 10,
      edge_cases: null,
      style: 5,
      complexity: 0,
      total: 8.13,
    });
  });
  it('is 0 when nothing is measurable', () => {
    expect(deterministicScores([t('skipped')], criteria, none).total).toBe(0);
  });
});
