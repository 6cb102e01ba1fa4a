// Nothing is silently unmeasured: each weighted criterion without a measured score is named with its
// reason, and one flag carries them (a warning when the submission caused it).
import { describe, expect, it } from 'vitest';
import type { FileAnalysis } from '../../src/domain/analysis.js';
import type { TestResult } from '../../src/domain/report.js';
import { analysisEvidence } from '../../src/stages/analysis/analysis-evidence.js';
import { complexityFromEvidence, styleFromEvidence } from '../../src/stages/analysis/analysis-scores.js';
import { deterministicScores } from '../../src/stages/score/scores.js';
import { unmeasuredCriteria } from '../../src/stages/score/unmeasured.js';

const criteria = { correctness: 0.6, edge_cases: 0.2, style: 0.1, complexity: 0.1 };
const limits = { max_loop_nesting: 2, max_cyclomatic: 10 };
const test = (id: string, status: TestResult['status'], edgeCase = false): TestResult => ({
  id,
  name: id,
  path: [id],
  file: 't.js',
  status,
  durationMs: 1,
  message: '',
  weight: 1,
  edgeCase,
});
const ok = (file: string): FileAnalysis => ({
  file,
  lint: [],
  skipped: null,
  metrics: { file, loc: 3, functions: [], maxLoopNesting: 0, maxCyclomatic: 1, policy: [] },
});
const blocked = (file: string, skipped: FileAnalysis['skipped'], rule: string): FileAnalysis => ({
  file,
  lint: [{ rule, severity: rule === 'parse-error' ? 'error' : 'warning', line: 1, column: 1, message: rule }],
  skipped,
  metrics: null,
});

function grade(tests: TestResult[], analyses: FileAnalysis[], policy: 'zero' | 'exclude') {
  const ev = analysisEvidence(analyses, limits);
  const items = [...ev.lint, ...ev.complexity];
  const det = deterministicScores(tests, criteria, {
    style: styleFromEvidence(items, policy),
    complexity: complexityFromEvidence(items, limits, policy),
  });
  return { det, ...unmeasuredCriteria(det, criteria, tests, items, policy) };
}

describe('unmeasured criteria', () => {
  it('says nothing when every weighted criterion was measured', () => {
    expect(grade([test('a', 'passed'), test('e', 'failed', true)], [ok('a.js')], 'zero')).toMatchObject({
      unmeasured: [],
      flag: null,
    });
  });

  it('zero: a file too large to analyse scores style and complexity 0, named with its file and reason', () => {
    const g = grade(
      [test('a', 'passed'), test('e', 'passed', true)],
      [ok('a.js'), blocked('big.js', 'too_large', 'analysis.too_large')],
      'zero',
    );
    expect(g.det).toEqual({ correctness: 10, edge_cases: 10, style: 0, complexity: 0, total: 8 });
    expect(g.unmeasured).toEqual([
      { criterion: 'style', reason: 'scored 0: big.js is too large to analyse' },
      { criterion: 'complexity', reason: 'scored 0: big.js is too large to analyse' },
    ]);
    expect(g.flag).toEqual({
      code: 'score.unmeasured',
      severity: 'warning',
      message: 'style: scored 0: big.js is too large to analyse; complexity: scored 0: big.js is too large to analyse',
      evidence: ['C2', 'L1'],
    });
  });

  it('zero: a file that does not parse blocks complexity only (its parse error is a style finding)', () => {
    const g = grade(
      [test('a', 'failed'), test('e', 'failed', true)],
      [blocked('a.js', 'parse_error', 'parse-error')],
      'zero',
    );
    expect([g.det.style, g.det.complexity]).toEqual([0, 0]);
    expect(g.unmeasured).toEqual([{ criterion: 'complexity', reason: 'scored 0: a.js does not parse' }]);
  });

  it('exclude: the blocked file drops out and the criteria left without a file say so', () => {
    const g = grade(
      [test('a', 'passed'), test('e', 'passed', true)],
      [blocked('big.js', 'cpu_budget', 'analysis.cpu_budget')],
      'exclude',
    );
    expect(g.det).toEqual({ correctness: 10, edge_cases: 10, style: null, complexity: null, total: 10 });
    expect(g.unmeasured.map((u) => u.reason)).toEqual([
      "not measured: big.js takes more CPU time to analyse than the rubric allows (left out by the rubric's analysis.unmeasurable: exclude)",
      "not measured: big.js takes more CPU time to analyse than the rubric allows (left out by the rubric's analysis.unmeasurable: exclude)",
    ]);
    expect(g.flag?.severity).toBe('warning');
  });

  it('a rubric without edge-case tests, or with every test skipped, is listed but raises no flag (the same for every submission)', () => {
    const g = grade([test('a', 'skipped')], [ok('a.js')], 'zero');
    expect(g.unmeasured).toEqual([
      { criterion: 'correctness', reason: 'not measured: every test that counts for it was skipped' },
      { criterion: 'edge_cases', reason: 'not measured: the rubric names no edge-case test' },
    ]);
    expect(g.flag).toBe(null);
  });
});
