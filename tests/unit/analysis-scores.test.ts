import { describe, expect, it } from 'vitest';
import type { FileAnalysis, LintMessage } from '../../src/domain/analysis.js';
import {
  analysisEvidence,
  complexityScore,
  policyFlags,
  styleScore,
} from '../../src/stages/analysis/analysis-evidence.js';

const msg = (rule: string, severity: 'error' | 'warning' = 'warning'): LintMessage => ({
  rule,
  severity,
  line: 1,
  column: 1,
  message: rule,
});
const file = (loc: number, lint: LintMessage[], extra: Partial<FileAnalysis> = {}): FileAnalysis => ({
  file: 'a.js',
  lint,
  skipped: null,
  metrics: { file: 'a.js', loc, functions: [], maxLoopNesting: 0, maxCyclomatic: 1, policy: [] },
  ...extra,
});
const fn = (name: string, cyclomatic: number, maxLoopNesting: number) => ({
  name,
  line: 1,
  endLine: 5,
  cyclomatic,
  maxLoopNesting,
  recursive: false,
  lines: 5,
  params: 1,
});
const limits = { max_loop_nesting: 1, max_cyclomatic: 5 };

describe('styleScore: 10 × (1 − density/30), density = Σweight × 100 / max(LOC, 50)', () => {
  it.each([
    ['clean file', [file(40, [])], 10],
    ['one warning in a short file (density 2)', [file(10, [msg('eslint/prefer-const')])], 9.33],
    ['one error in a short file (density 6)', [file(10, [msg('eslint/no-undef', 'error')])], 8],
    [
      'three errors over 200 lines (density 4.5)',
      [file(200, [msg('eslint/eqeqeq', 'error'), msg('eslint/eqeqeq', 'error'), msg('eslint/eqeqeq', 'error')])],
      8.5,
    ],
    [
      'a file that does not parse (weight 30 → density 60)',
      [file(10, [msg('parse-error', 'error')], { metrics: null, skipped: 'parse_error' })],
      0,
    ],
    ['analysis notes cost nothing', [file(10, [msg('analysis.note')])], 10],
    [
      'a file too large to analyse scores 0',
      [file(10, [msg('analysis.too_large')], { metrics: null, skipped: 'too_large' })],
      0,
    ],
    [
      'a clean file beside one too slow to analyse still scores 0',
      [file(40, []), file(10, [msg('analysis.cpu_budget')], { file: 'b.js', metrics: null, skipped: 'cpu_budget' })],
      0,
    ],
    ['no files', [], null],
  ] as const)('%s', (_what, analyses, expected) => {
    expect(styleScore(analyses as readonly FileAnalysis[])).toBe(expected);
  });

  it.each([
    [
      'only the blocked file: nothing measured',
      [file(10, [msg('analysis.too_large')], { metrics: null, skipped: 'too_large' })],
      null,
    ],
    [
      'the blocked file drops out',
      [
        file(10, [msg('eslint/prefer-const')]),
        file(10, [msg('analysis.out_of_memory')], { file: 'b.js', metrics: null, skipped: 'out_of_memory' }),
      ],
      9.33,
    ],
  ] as const)('policy exclude: %s', (_what, analyses, expected) => {
    expect(styleScore(analyses as readonly FileAnalysis[], 'exclude')).toBe(expected);
  });
});

describe('complexityScore: 10 − 2.5 × nesting excess − 1 × cyclomatic excess', () => {
  const withFns = (...fns: ReturnType<typeof fn>[]): FileAnalysis =>
    file(20, [], {
      metrics: {
        file: 'a.js',
        loc: 20,
        functions: fns,
        maxLoopNesting: Math.max(0, ...fns.map((f) => f.maxLoopNesting)),
        maxCyclomatic: Math.max(1, ...fns.map((f) => f.cyclomatic)),
        policy: [],
      },
    });
  it.each([
    ['within limits', [withFns(fn('a', 5, 1))], 10],
    ['one loop level too deep', [withFns(fn('a', 3, 2))], 7.5],
    ['cyclomatic 8 against 5', [withFns(fn('a', 8, 0))], 7],
    ['both, worst functions across files', [withFns(fn('a', 8, 0)), withFns(fn('b', 2, 3))], 2],
    ['deeply nested mess floors at 0', [withFns(fn('a', 30, 6))], 0],
    ['a file that does not parse scores 0', [file(1, [], { metrics: null, skipped: 'parse_error' })], 0],
    [
      'a file too deep to analyse beside a clean one scores 0',
      [withFns(fn('a', 2, 0)), file(1, [], { file: 'b.js', metrics: null, skipped: 'too_deep' })],
      0,
    ],
    ['no files', [], null],
  ] as const)('%s', (_what, analyses, expected) => {
    expect(complexityScore(analyses as readonly FileAnalysis[], limits)).toBe(expected);
  });

  it('policy exclude leaves a file that does not parse out (nothing measured)', () => {
    expect(complexityScore([file(1, [], { metrics: null, skipped: 'parse_error' })], limits, 'exclude')).toBe(null);
  });
});

describe('analysis evidence', () => {
  it('numbers lint findings L… and functions/policy findings C…, and flags policy findings', () => {
    const a: FileAnalysis = {
      file: 'b.js',
      skipped: null,
      lint: [msg('eslint/no-undef', 'error')],
      metrics: {
        file: 'b.js',
        loc: 5,
        functions: [fn('f', 7, 2)],
        maxLoopNesting: 2,
        maxCyclomatic: 7,
        policy: [{ rule: 'policy.child_process', line: 2, column: 3, message: 'requires "child_process"' }],
      },
    };
    const ev = analysisEvidence([a], limits);
    expect(ev).toEqual({
      lint: [
        {
          id: 'L1',
          kind: 'lint',
          rule: 'eslint/no-undef',
          severity: 'error',
          file: 'b.js',
          line: 1,
          column: 1,
          message: 'eslint/no-undef',
          weight: 3,
        },
      ],
      complexity: [
        {
          id: 'C1',
          kind: 'complexity',
          rule: 'file',
          file: 'b.js',
          loc: 5,
          measured: true,
          metrics: true,
          maxLoopNesting: 2,
          maxCyclomatic: 7,
          blocked: null,
        },
        { id: 'C2', kind: 'complexity', rule: 'function', file: 'b.js', ...fn('f', 7, 2), overLimit: true },
        {
          id: 'C3',
          kind: 'complexity',
          rule: 'policy.child_process',
          file: 'b.js',
          line: 2,
          column: 3,
          message: 'requires "child_process"',
        },
      ],
    });
    expect(policyFlags(ev.complexity)).toEqual([
      {
        code: 'policy.child_process',
        severity: 'warning',
        message: 'b.js:2: requires "child_process"',
        evidence: ['C3'],
      },
    ]);
  });
});
