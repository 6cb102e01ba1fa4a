// The audit's mutants: StrykerJS's for JS/TS, ours over tree-sitter for Python; stable ids; verdicts from runs.
import { describe, expect, it } from 'vitest';
import { jsMutants } from '../../src/audit/js-mutants.js';
import { pyMutants } from '../../src/audit/py-mutants.js';
import { applyMutant } from '../../src/audit/sites.js';
import { verdictOf, flakyTests, mutantLimits } from '../../src/audit/classify.js';
import { newAttemptState } from '../../src/stages/run/attempts.js';
import { LimitsSchema } from '../../src/domain/rubric.js';

const brief = (ms: { operator: string; original: string; replacement: string; line: number }[]): string[] =>
  ms.map((m) => `${m.line} ${m.operator}: ${m.original} → ${m.replacement}`);

describe('Python mutants', () => {
  it('cover the field’s classes plus /↔//, in↔not in, slice bounds, exception types and returning the argument', async () => {
    const src = [
      'def f(xs, y):',
      '    """doc"""',
      '    if y in xs and y / 2 > 0:',
      '        raise ValueError("bad")',
      '    return list(xs[1:3])',
      '',
    ].join('\n');
    expect(brief(await pyMutants('f.py', src))).toEqual([
      '3 block: if y in xs and y / 2 > 0:\n        raise ValueError("bad")\n    return list(xs[1:3]) → pass',
      '3 conditional: y in xs and y / 2 > 0 → True',
      '3 conditional: y in xs and y / 2 > 0 → False',
      '3 membership: in → not in',
      '3 logical: and → or',
      '3 arithmetic: / → *',
      '3 arithmetic: / → //',
      '3 numeric: 2 → 3',
      '3 numeric: 2 → 1',
      '3 equality: > → >=',
      '3 equality: > → <=',
      '3 numeric: 0 → 1',
      '3 numeric: 0 → -1',
      '4 block: raise ValueError("bad") → pass',
      '4 exception: ValueError → Exception',
      '4 string: bad → ',
      '5 copy: list(xs[1:3]) → xs[1:3]',
      '5 numeric: 1 → 0',
      '5 slice: 1 → ',
      '5 numeric: 1 → 2',
      '5 slice: 3 → ',
      '5 numeric: 3 → 2',
      '5 numeric: 3 → 4',
    ]);
  });

  it('a mutant applied is valid Python of the same file', async () => {
    const src = 'def f(xs):\n    return xs[1:]\n';
    const slice = (await pyMutants('f.py', src)).find((m) => m.operator === 'slice');
    expect(slice && applyMutant(src, slice)).toBe('def f(xs):\n    return xs[:]\n');
  });
});

describe('JavaScript and TypeScript mutants (StrykerJS’s instrumenter)', () => {
  it('name StrykerJS’s mutators in the field’s classes, at 1-based lines', async () => {
    const src = 'export function f(a, b) {\n  return a.slice(0, b) ?? [a > b && !b];\n}\n';
    const ms = await jsMutants('f.js', src);
    expect([...new Set(ms.map((m) => m.operator))].sort()).toEqual(
      // `!b` → `b` is StrykerJS's BooleanLiteral.
      ['array', 'block', 'boolean', 'conditional', 'equality', 'logical', 'method'],
    );
    const method = ms.find((m) => m.operator === 'method');
    expect(method && applyMutant(src, method)).toBe('export function f(a, b) {\n  return a ?? [a > b && !b];\n}\n');
  });

  it('ids are stable: the same mutant has the same id in another run and after an edit elsewhere in the file', async () => {
    const src = 'export const f = (x) => x + 1;\n';
    const a = await jsMutants('f.js', src);
    const b = await jsMutants('f.js', src);
    expect(a.map((m) => m.id)).toEqual(b.map((m) => m.id));
    const edited = await jsMutants('f.js', `${src}export const g = (y) => y * 2;\n`);
    expect(edited.map((m) => m.id)).toEqual(expect.arrayContaining(a.map((m) => m.id)));
    expect(new Set(a.map((m) => m.id)).size).toBe(a.length);
  });

  it('TypeScript parses with its types and keeps them in the mutant', async () => {
    const ms = await jsMutants('t.ts', 'export const k = (c: number): number => c + 273.15;\n');
    expect(brief(ms)).toEqual([
      '1 block: (c: number): number => c + 273.15 → () => undefined',
      '1 arithmetic: c + 273.15 → c - 273.15',
    ]);
  });
});

describe('verdicts', () => {
  const expected = [
    { file: 't.js', index: 0, path: ['a'] },
    { file: 't.js', index: 1, path: ['b'] },
  ];
  const state = (a: string | null, b: string | null) => {
    const s = newAttemptState();
    if (a) s.results.set('t.js#0', { status: a as 'passed', durationMs: 3, message: `${a} msg` });
    if (b) s.results.set('t.js#1', { status: b as 'passed', durationMs: 3, message: '' });
    return s;
  };

  it('killed by the failing tests; an early stop’s unrun tests are not results; timeout; survived; error', () => {
    expect(verdictOf(state('failed', null), expected)).toEqual({
      status: 'killed',
      killedBy: ['a'],
      detail: 'failed msg',
    });
    expect(verdictOf(state('passed', 'timeout'), expected)).toMatchObject({ status: 'timeout', killedBy: ['b'] });
    expect(verdictOf(state('passed', 'passed'), expected)).toEqual({ status: 'survived', killedBy: [] });
    expect(verdictOf(state(null, null), expected)).toMatchObject({ status: 'error' });
    const untrusted = state('passed', 'passed');
    untrusted.untrusted = 'registration differs';
    expect(verdictOf(untrusted, expected)).toMatchObject({ status: 'error', detail: 'registration differs' });
  });

  it('a test whose verdict differs between reference runs is flaky, with its outcomes', () => {
    expect(flakyTests([state('passed', 'passed'), state('passed', 'failed')], expected)).toEqual([
      { test: 'b', outcomes: ['passed', 'failed'] },
    ]);
  });

  it('budgets come from the reference’s time, never above the rubric’s', () => {
    const limits = LimitsSchema.parse({ timeout_ms: 10_000, test_timeout_ms: 5_000 });
    expect(mutantLimits(limits, 400, 20)).toMatchObject({ timeout_ms: 2_000, test_timeout_ms: 1_000 });
    expect(mutantLimits(limits, 5_000, 600)).toMatchObject({ timeout_ms: 10_000, test_timeout_ms: 5_000 });
  });
});
