// The lint+metrics worker pool on pathological input: each ends as a finding
// within its limit while the other files of the batch are analysed normally.
import { afterAll, describe, expect, it } from 'vitest';
import { createAnalysisPool } from '../../src/adapters/analysis/pool.js';
import { LintSpecSchema } from '../../src/domain/lint.js';
import { inlineSubmission } from '../helpers.js';

const pool = createAnalysisPool({ threads: 2, timeoutMs: 15_000, maxBytes: 256 * 1024 });
afterAll(() => pool.close());
const spec = LintSpecSchema.parse({});
const summary = (a: { file: string; skipped: string | null; lint: readonly { rule: string }[]; metrics: { loc: number } | null }) =>
  [a.file, a.skipped, a.lint.map((m) => m.rule).filter((r) => !r.startsWith('eslint/')), a.metrics ? a.metrics.loc : null];

describe('analysis pool', () => {
  it('turns a huge file, deep nesting and a 10,000-line function into findings, and still measures the normal file', async () => {
    const minified = `var a=[${'1,'.repeat(600_000)}1];`;
    const deep = `module.exports = ${'['.repeat(5000)}${']'.repeat(5000)};\n`;
    const deeper = `module.exports = ${'('.repeat(100_000)}1${')'.repeat(100_000)};\n`;
    const longFn = `function f(x) {\n${'  x = x + 1;\n'.repeat(10_000)}  return x;\n}\nmodule.exports = { f };\n`;
    const normal = 'const add = (a, b) => a + b;\nmodule.exports = { add };\n';
    const files = inlineSubmission({ 'bundle.min.js': minified, 'deep.js': deep, 'deeper.js': deeper, 'long.js': longFn, 'ok.js': normal }).files;
    const t0 = performance.now();
    const out = await pool.analyse(files, spec);
    expect(performance.now() - t0).toBeLessThan(30_000); // bounded by the per-file limit, not a benchmark
    expect(out.map(summary)).toEqual([
      ['bundle.min.js', 'too_large', ['analysis.too_large'], null],
      ['deep.js', null, [], 1],
      ['deeper.js', 'parse_error', ['parse-error'], null],
      ['long.js', null, [], 10_004],
      ['ok.js', null, [], 2],
    ]);
    expect(out[3]?.metrics?.functions.map((f) => [f.name, f.lines])).toEqual([['f', 10_003]]);
  });

  it('kills a worker that exceeds the time limit and reports it, then keeps working', async () => {
    // 3 s: far below the heavy file's ~7 s of linting, far above a cold worker's start even on a loaded machine.
    const tiny = createAnalysisPool({ threads: 1, timeoutMs: 3000, maxBytes: 1 << 22 });
    try {
      // ~1.8 MB of branching functions: several seconds of linting, far past the 1 s limit.
      const heavy = Array.from({ length: 20_000 }, (_, i) => `function f${i}(a) { if (a) { for (const x of a) { while (x) { a = a ?? x; } } } return a; }`).join('\n');
      const [slow] = await tiny.analyse(inlineSubmission({ 'slow.js': heavy }).files, spec);
      expect(summary(slow as never)).toEqual(['slow.js', 'timeout', ['analysis.timeout'], null]);
      const [after] = await tiny.analyse(inlineSubmission({ 'ok.js': 'module.exports = 1;\n' }).files, spec);
      expect(summary(after as never)).toEqual(['ok.js', null, [], 1]);
    } finally {
      await tiny.close();
    }
  });
});
