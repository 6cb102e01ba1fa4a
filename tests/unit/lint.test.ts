import { describe, expect, it } from 'vitest';
import { lintFile as lintView } from '../../src/adapters/analysis/lint.js';
import { analysisView } from '../../src/stages/analysis/analysis-view.js';
import { LintSpecSchema } from '../../src/domain/lint.js';

const spec = LintSpecSchema.parse({});
const lintFile = (file: string, code: string, s: typeof spec) => lintView(file, analysisView(file, code), s);
const rules = (code: string, file = 'a.js', s = spec) =>
  lintFile(file, code, s).map((m) => `${m.rule}:${m.severity}:${m.line}`);

describe('lintFile (ESLint Linter, in process)', () => {
  it('reports correctness rules as errors and taste as warnings, with positions', () => {
    expect(rules('var x = 1;\nif (x == 2) { y = 3; }\nmodule.exports = { x };\n')).toEqual([
      'eslint/no-var:warning:1',
      'eslint/eqeqeq:error:2',
      'eslint/no-undef:error:2',
    ]);
  });
  it('knows CommonJS and ESM, and Node globals', () => {
    expect(rules("const fs = require('fs');\nmodule.exports = { r: () => fs.readFileSync(__filename) };\n")).toEqual(
      [],
    );
    expect(rules('export const f = () => process.argv.length;\n')).toEqual([]);
  });
  it('ignores inline eslint-disable comments: a student cannot switch the rules off', () => {
    // ESLint reads the analysis view, where the directive is filler: it sees no directive at all.
    expect(rules('/* eslint-disable */\nfoo();\n')).toEqual(['eslint/no-undef:error:2']);
    // Without the view, noInlineConfig still holds (defence in depth), and notes the attempt.
    expect(lintView('a.js', '/* eslint-disable */\nfoo();\n' as never, spec).map((m) => m.rule)).toEqual([
      'analysis.inline_config_ignored',
      'eslint/no-undef',
    ]);
  });
  it("takes an ambiguous .js file as CommonJS unless only a module parse accepts it (Node's rule, as jobs run it)", () => {
    // An `export` after other code on its line, and top-level await: modules the harness runs; no parse error.
    expect(rules("const W = ['zero']; export const say = (n) => W[n];\n")).toEqual([]);
    expect(rules('const n = await Promise.resolve(1);\nexport { n };\n')).toEqual([]);
    expect(rules('const n = await Promise.resolve(1);\nconsole.log(n);\n')).toEqual([]);
    // Mentioning the words keeps CommonJS when it parses as CommonJS (require and module stay defined).
    expect(rules("const fs = require('fs');\nmodule.exports = { s: 'import export await', fs };\n")).toEqual([]);
    // Neither parse accepts it: still one parse error.
    expect(lintFile('a.js', 'const W = 1; export const f = (;\n', spec).map((m) => m.rule)).toEqual(['parse-error']);
  });
  it('turns a syntax error into one parse-error finding', () => {
    expect(lintFile('a.js', 'function (', spec).map((m) => [m.rule, m.severity, m.line])).toEqual([
      ['parse-error', 'error', 1],
    ]);
  });
  it('parses TypeScript with typescript-eslint, without type-unaware rules', () => {
    expect(
      rules('export function add(a: number, b: number): number { return a + b; }\nlet unused: string;\n', 'a.ts'),
    ).toEqual([]);
  });
  it('applies the rubric overrides', () => {
    const s = LintSpecSchema.parse({ rules: { 'no-var': 'off', 'no-console': 'error' } });
    expect(rules('var x = 1;\nconsole.log(x);\n', 'a.js', s)).toEqual(['eslint/no-console:error:2']);
  });
});
