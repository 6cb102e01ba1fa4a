import { describe, expect, it } from 'vitest';
import type { JudgeOutput } from '../../src/domain/judge.js';
import type { DeterministicScores, EvidenceItem } from '../../src/domain/report.js';
import { auditJudge } from '../../src/stages/judge/audit.js';
import { blend } from '../../src/stages/judge/blend.js';
import { parseJudgeAnswer } from '../../src/stages/judge/judge-parse.js';
import { CriteriaSchema } from '../../src/domain/rubric.js';

const test = (id: string, status: 'passed' | 'failed' | 'timeout'): EvidenceItem => ({
  id,
  kind: 'test',
  name: id,
  status,
  weight: 1,
  edgeCase: false,
  message: '',
});
const items: EvidenceItem[] = [
  test('T1', 'passed'),
  test('T2', 'passed'),
  test('T3', 'failed'),
  { id: 'S1', kind: 'sandbox', event: 'timeout', detail: 'wall clock' },
  {
    id: 'L1',
    kind: 'lint',
    rule: 'eslint/no-undef',
    severity: 'error',
    file: 'a.js',
    line: 1,
    column: 1,
    message: 'x',
    weight: 3,
  },
];
const det: DeterministicScores = { correctness: 6.67, edge_cases: null, style: 8, complexity: 10, total: 7.5 };
const answer = (over: Partial<JudgeOutput> = {}): JudgeOutput => ({
  scores: { correctness: 6.67, edge_cases: 5, style: 8, complexity: 10 },
  claims: [{ criterion: 'correctness', polarity: 'weakness', text: 'T3 fails.', evidence: ['T3'] }],
  confidence: 0.5,
  insufficient_evidence: false,
  summary: '',
  ...over,
});
const codes = (o: JudgeOutput, d = det) => auditJudge(o, items, d, 2).map((f) => [f.code, f.evidence]);

describe('hallucination auditor', () => {
  it('passes an answer that follows the evidence', () => {
    expect(codes(answer())).toEqual([]);
  });
  it.each([
    [
      'a cited id that does not exist',
      answer({ claims: [{ criterion: 'style', polarity: 'weakness', text: 'bad', evidence: ['L9'] }] }),
      [['judge.unknown_evidence', ['L9']]],
    ],
    [
      'a strength its evidence contradicts',
      answer({ claims: [{ criterion: 'correctness', polarity: 'strength', text: 'solid', evidence: ['T1', 'T3'] }] }),
      [
        ['judge.contradicted_claim', ['T3']],
        ['judge.correctness_despite_violation', ['S1']],
      ],
    ],
    [
      '"T3 passes" in the text when T3 failed',
      answer({
        claims: [{ criterion: 'correctness', polarity: 'weakness', text: 'T3 passes but is slow', evidence: ['T1'] }],
      }),
      [['judge.contradicted_claim', ['T3']]],
    ],
    [
      'high confidence with one citation',
      answer({ confidence: 0.9 }),
      [['judge.confidence_without_citations', ['T3']]],
    ],
    [
      'style 9 with light lint findings (weight 3 < 9): no flag',
      answer({ scores: { correctness: 6.67, edge_cases: 5, style: 9, complexity: 10 } }),
      [],
    ],
    [
      'an adjustment beyond ±2 without a reason',
      answer({ scores: { correctness: 6.67, edge_cases: 5, style: 8, complexity: 7 } }),
      [['judge.adjustment_out_of_bounds', []]],
    ],
  ])('flags %s', (_what, out, expected) => {
    expect(codes(out)).toEqual(expected);
  });
  it('flags high correctness with a low pass rate, and correctness despite a timeout', () => {
    const low: DeterministicScores = { ...det, correctness: 3 };
    expect(
      codes(answer({ scores: { correctness: 8, edge_cases: 5, style: 8, complexity: 10 } }), low).map(([c]) => c),
    ).toEqual(['judge.correctness_vs_tests', 'judge.correctness_despite_violation', 'judge.adjustment_out_of_bounds']);
  });
});

describe('blend', () => {
  const criteria = CriteriaSchema.parse({ correctness: 0.6, edge_cases: 0.2, style: 0.1, complexity: 0.1 });
  const w = { deterministic: 0.6, llm: 0.4 };
  it('mixes 60/40 per criterion and in total, over the measured criteria', () => {
    const b = blend(
      det,
      answer({ scores: { correctness: 8, edge_cases: 9, style: 9, complexity: 10 } }),
      0,
      criteria,
      w,
      '',
    );
    // LLM total over measured criteria: (0.6×8 + 0.1×9 + 0.1×10) / 0.8 = 8.38; final 0.6×7.5 + 0.4×8.38 = 7.85
    expect(b).toEqual({
      llm: { correctness: 8, edge_cases: null, style: 9, complexity: 10, total: 8.38 },
      final: 7.85,
      perCriterion: { correctness: 7.2, edge_cases: null, style: 8.4, complexity: 10 },
      applied: true,
      reason: '0.6 × deterministic + 0.4 × LLM',
      weights: w,
    });
  });
  it('gives the LLM weight 0 when a flag fired or no judge answered', () => {
    expect(blend(det, answer(), 1, criteria, w, '').applied).toBe(false);
    expect(blend(det, answer(), 1, criteria, w, '').final).toBe(7.5);
    expect(blend(det, null, 0, criteria, w, 'LLM weight 0: no judge answered').reason).toBe(
      'LLM weight 0: no judge answered',
    );
  });
});

describe('parseJudgeAnswer', () => {
  const ok = JSON.stringify(answer());
  it.each([
    ['plain JSON', ok, true],
    ['one ```json fence', `\`\`\`json\n${ok}\n\`\`\``, true],
    ['prose around it', `Here you go: ${ok}`, false],
    ['an extra field', JSON.stringify({ ...answer(), grade: 'A' }), false],
    ['a missing field', JSON.stringify({ ...answer(), summary: undefined }), false],
    [
      'a score above 10',
      JSON.stringify(answer({ scores: { correctness: 11, edge_cases: 5, style: 8, complexity: 10 } })),
      false,
    ],
  ])('%s', (_what, text, good) => {
    expect(parseJudgeAnswer(text, 'stop').ok).toBe(good);
  });
  it('treats finish_reason length as truncated even if the JSON parses', () => {
    expect(parseJudgeAnswer(ok, 'length')).toEqual({
      ok: false,
      outcome: 'truncated',
      reason: 'the answer was cut off (finish_reason: length)',
    });
  });
});
