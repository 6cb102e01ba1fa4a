import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRubric } from '../../src/adapters/fs/rubric-loader.js';

function rubricDir(
  yaml: string,
  tests: Record<string, string> = { 'tests/a.test.js': "test('x', () => {});" },
): string {
  const dir = mkdtempSync(join(tmpdir(), 'evigrade-rubric-'));
  for (const [p, c] of Object.entries(tests)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  writeFileSync(join(dir, 'rubric.yaml'), yaml);
  return join(dir, 'rubric.yaml');
}
const BASE =
  'id: demo\ntitle: Demo\nlanguage: javascript\nstatement: Do it.\nentry: ./demo\ntests: [tests/a.test.js]\n';
const error = async (path: string): Promise<{ code: string; message: string }> => {
  try {
    await loadRubric(path);
  } catch (e) {
    return e as { code: string; message: string };
  }
  throw new Error('rubric was accepted');
};

describe('rubric loading', () => {
  it('loads, applies defaults, hashes and freezes', async () => {
    const r = await loadRubric(rubricDir(BASE));
    expect(r.spec.limits.timeout_ms).toBe(10000);
    expect(r.spec.blend).toEqual({ deterministic: 0.6, llm: 0.4, max_adjustment: 2 });
    expect(r.tests.map((t) => t.name)).toEqual(['a.test.js']);
    expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.isFrozen(r.spec.limits)).toBe(true);
    // Students see nothing of a test unless the rubric says so (issue 33).
    expect([r.spec.visibility, r.spec.hint, r.spec.student]).toEqual([{}, {}, { hide_total: 'while_unreleased' }]);
  });

  it.each([
    [
      'a wrong type',
      `${BASE}limits:\n  timeout_ms: soon\n`,
      'limits.timeout_ms: Invalid input: expected number, received string',
    ],
    ['an unknown key', `${BASE}colour: blue\n`, '(top level): Unrecognized key: "colour"'],
    [
      'criteria not summing to 1',
      `${BASE}criteria: { correctness: 0.5, edge_cases: 0.2, style: 0.1, complexity: 0.1 }\n`,
      'criteria: criteria weights must sum to 1, and these sum to 0.9 (0.5 + 0.2 + 0.1 + 0.1)',
    ],
    [
      'blend not summing to 1',
      `${BASE}blend: { deterministic: 0.7, llm: 0.4 }\n`,
      'blend: blend.deterministic + blend.llm must equal 1, and 0.7 + 0.4 = 1.1',
    ],
    [
      'a mistyped key (did you mean)',
      `${BASE}qualty: gated\n`,
      '(top level): Unrecognized key: "qualty" (did you mean "qualty" → "quality"?)',
    ],
    [
      'a mistyped nested key',
      `${BASE}limits: { timout_ms: 5000 }\n`,
      'limits: Unrecognized key: "timout_ms" (did you mean "timout_ms" → "timeout_ms"?)',
    ],
    ['a bad entry', BASE.replace('./demo', 'demo.js'), 'entry: a sibling module such as "./leap" or "./leap.js"'],
    [
      'a test path escaping the rubric',
      BASE.replace('[tests/a.test.js]', '[../x.js]'),
      'tests.0: must be a relative path without ".."',
    ],
    ['a missing test file', BASE.replace('tests/a.test.js', 'tests/missing.test.js'), 'tests.0 '],
    ['an unsupported language', BASE.replace('javascript', 'ruby'), 'language'],
    [
      'an unknown visibility level',
      `${BASE}visibility: { a.test.js: shown }\n`,
      'visibility.a.test.js: expected one of "visible"|"hidden"|"after_due", or { show, title }, got "shown"',
    ],
    [
      'a mistyped key in a visibility rule',
      `${BASE}visibility: { x: { show: hidden, titel: Mystery } }\n`,
      'visibility.x: Unrecognized key: "titel"',
    ],
    ['an empty hint', `${BASE}hint: { x: "  " }\n`, 'hint.x: Too small: expected string to have >=1 characters'],
    [
      'an unknown hide_total',
      `${BASE}student: { hide_total: always }\n`,
      'student.hide_total: Invalid option: expected one of "while_unreleased"|"never"',
    ],
    [
      'a test limit above the job’s own (issue 33)',
      `${BASE}limits: { timeout_ms: 5000 }\ntest_limits: { "s > slow one": { time_ms: 9000 } }\n`,
      'test_limits.s > slow one.time_ms: 9000 ms is above limits.timeout_ms (5000 ms), the time of the whole job the test runs in',
    ],
    [
      'a test limit with neither key',
      `${BASE}test_limits: { x: {} }\n`,
      'test_limits.x: give time_ms, memory_mb or both',
    ],
    [
      'a mistyped key in a test limit',
      `${BASE}test_limits: { x: { time: 500 } }\n`,
      'test_limits.x: Unrecognized key: "time"',
    ],
    [
      'a test memory limit under the floor',
      `${BASE}test_limits: { x: { memory_mb: 16 } }\n`,
      'test_limits.x.memory_mb: Too small: expected number to be >=64',
    ],
    [
      'a total timeout that is not a number',
      `${BASE}limits: { total_timeout_ms: lots }\n`,
      'limits.total_timeout_ms: Invalid input: expected number, received string',
    ],
    [
      'a release date without a zone',
      `${BASE}student: { release_at: "2026-12-01T09:00" }\n`,
      'student.release_at: Invalid ISO datetime',
    ],
  ])('rejects %s naming the file and the field', async (_what, yaml, text) => {
    const e = await error(rubricDir(yaml));
    expect(['RUBRIC_INVALID', 'RUBRIC_NOT_FOUND']).toContain(e.code);
    expect(e.message).toContain('rubric.yaml');
    expect(e.message).toContain(text);
  });

  it('ends a YAML syntax error with the offending line and a caret under its column, not a colon (issue 31)', async () => {
    const e = await error(rubricDir(`${BASE}limits:\n  timeout_ms: 5000\n\tmemory_mb: 9\nweights: {a: 1\n`));
    expect(e.code).toBe('RUBRIC_INVALID');
    const [first, ...rest] = e.message.split('\n');
    expect(first).toMatch(/rubric\.yaml:9:1: YAML: Tabs are not allowed as indentation$/);
    expect(rest.slice(0, 2)).toEqual(['    \tmemory_mb: 9', '    ^']);
    const unclosed = await error(rubricDir(`${BASE}title2: [a, b\nother: 1\n`));
    expect(unclosed.message.split('\n').slice(1)).toEqual(['    other: 1', '    ^']);
    expect(unclosed.message).toMatch(
      /^.*rubric\.yaml:8:1: YAML: Flow sequence in block collection must be sufficiently indented and end with a \]\n/,
    );
    for (const m of [e.message, unclosed.message]) expect(m).not.toMatch(/:$/m);
  });

  describe('Python lint selectors', () => {
    const PY = 'id: py\ntitle: Py\nlanguage: python\nstatement: Do it.\nentry: ./demo\ntests: [tests/demo_test.py]\n';
    const py = (lint: string): string =>
      rubricDir(`${PY}lint:\n  rules: ${lint}\n`, {
        'tests/demo_test.py': 'from demo import f\n\ndef test_f():\n    assert f() == 1\n',
      });

    it('accepts ruff codes and prefixes', async () => {
      const r = await loadRubric(py("{ E711: warn, E7: 'off', F: error, PLR0913: ['off'] }"));
      expect(r.spec.lint.rules).toEqual({ E711: 'warn', E7: 'off', F: 'error', PLR0913: ['off'] });
    });

    it('names each bad selector and why', async () => {
      const e = await error(py("{ no-undef: error, ZZZ9: warn, ALL: error, E999: warn, E501: ['warn', 100] }"));
      expect(e.code).toBe('RUBRIC_INVALID');
      expect(e.message.split('\n').map((l) => l.replace(/^.*?: lint/, 'lint'))).toEqual([
        'lint.rules.no-undef: not a ruff rule selector (a rule code such as E711, or a prefix such as E7 or F)',
        'lint.rules.ZZZ9: not a ruff rule selector: Unknown rule selector `ZZZ9`',
        'lint.rules.ALL: not a ruff rule selector (a rule code such as E711, or a prefix such as E7 or F)',
        'lint.rules.E999: not a ruff rule selector: Rule `E999` was removed and cannot be selected.',
        'lint.rules.E501: ruff rules take no options here: give a level (off, warn, error)',
      ]);
    });
  });
});
