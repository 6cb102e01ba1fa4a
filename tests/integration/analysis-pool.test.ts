// The lint+metrics worker pool on pathological input: each ends as a finding
// within its limit while the other files of the batch are analysed normally.
// Budgets are CPU time of the analysing thread: waiting in the queue or a cold
// worker's start-up is never charged to a file.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAnalysisPool, type AnalysisRequest } from '../../src/adapters/analysis/pool.js';
import { LintSpecSchema } from '../../src/domain/lint.js';
import { AnalysisLimitsSchema } from '../../src/domain/rubric.js';
import { inlineSubmission } from '../helpers.js';

const pool = createAnalysisPool({ threads: 2 });
afterAll(() => pool.close());
const request = (limits: Partial<AnalysisRequest['limits']> = {}, language = 'javascript'): AnalysisRequest => ({
  lint: LintSpecSchema.parse({}),
  language,
  limits: AnalysisLimitsSchema.parse({ cpu_ms: 15_000, ...limits }),
});
const summary = (a: {
  file: string;
  skipped: string | null;
  lint: readonly { rule: string }[];
  metrics: { loc: number } | null;
}) => [
  a.file,
  a.skipped,
  a.lint.map((m) => m.rule).filter((r) => !r.startsWith('eslint/')),
  a.metrics ? a.metrics.loc : null,
];
// ~1.8 MB of branching functions: seconds of linting on any machine.
const heavy = Array.from(
  { length: 20_000 },
  (_, i) => `function f${i}(a) { if (a) { for (const x of a) { while (x) { a = a ?? x; } } } return a; }`,
).join('\n');

describe('analysis pool', () => {
  it('turns a huge file, deep nesting and a 10,000-line function into findings, and still measures the normal file', async () => {
    const minified = `var a=[${'1,'.repeat(600_000)}1];`;
    const deep = `module.exports = ${'['.repeat(5000)}${']'.repeat(5000)};\n`;
    const deeper = `module.exports = ${'('.repeat(100_000)}1${')'.repeat(100_000)};\n`;
    const longFn = `function f(x) {\n${'  x = x + 1;\n'.repeat(10_000)}  return x;\n}\nmodule.exports = { f };\n`;
    const normal = 'const add = (a, b) => a + b;\nmodule.exports = { add };\n';
    const files = inlineSubmission({
      'bundle.min.js': minified,
      'deep.js': deep,
      'deeper.js': deeper,
      'long.js': longFn,
      'ok.js': normal,
    }).files;
    const out = await pool.analyse(files, request());
    expect(out.map(summary)).toEqual([
      ['bundle.min.js', 'too_large', ['analysis.too_large'], null],
      ['deep.js', null, [], 1],
      ['deeper.js', 'parse_error', ['parse-error'], null],
      ['long.js', null, [], 10_004],
      ['ok.js', null, [], 2],
    ]);
    expect(out[3]?.metrics?.functions.map((f) => [f.name, f.lines])).toEqual([['f', 10_003]]);
  });

  it('counts code, not comments or blank lines, toward the size limit', async () => {
    const code = 'const add = (a, b) => a + b;\nmodule.exports = { add };\n';
    const padded = `/* ${'x'.repeat(300 * 1024)} */\n${'\n'.repeat(50_000)}${'// note\n'.repeat(20_000)}${code}`;
    const bloated = `module.exports = [${'"abcdefgh",\n'.repeat(30_000)}];\n`;
    const out = await pool.analyse(
      inlineSubmission({ 'padded.js': padded, 'bloated.js': bloated }).files,
      request({ max_code_kb: 256 }),
    );
    expect(out.map(summary)).toEqual([
      ['padded.js', null, [], 2],
      ['bloated.js', 'too_large', ['analysis.too_large'], null],
    ]);
    expect(out[1]?.lint[0]?.message).toBe(
      'not analysed: 360021 bytes of code (comments and blank lines excluded) is more than 262144',
    );
  });

  it("stops a file at its CPU budget, reports it as the file's, and keeps working", async () => {
    const tiny = createAnalysisPool({ threads: 1 });
    try {
      const [slow] = await tiny.analyse(
        inlineSubmission({ 'slow.js': heavy }).files,
        request({ cpu_ms: 500, max_code_kb: 4096 }),
      );
      expect(summary(slow as never)).toEqual(['slow.js', 'cpu_budget', ['analysis.cpu_budget'], null]);
      expect(slow?.lint[0]?.message).toBe('not analysed: slow.js used more than 500 ms of CPU time');
      const [after] = await tiny.analyse(
        inlineSubmission({ 'ok.js': 'module.exports = 1;\n' }).files,
        request({ cpu_ms: 500 }),
      );
      expect(summary(after as never)).toEqual(['ok.js', null, [], 1]);
    } finally {
      await tiny.close();
    }
  });

  it('never charges a file for a cold worker or for waiting behind other files', async () => {
    // One cold thread, twelve files of ~100 ms of linting each: the last waits behind eleven others and
    // the first pays ESLint's start-up, yet each is charged only the CPU its own analysis used.
    const cold = createAnalysisPool({ threads: 1 });
    try {
      const medium = heavy.split('\n').slice(0, 400).join('\n');
      const files = inlineSubmission(
        Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${String(i).padStart(2, '0')}.js`, medium])),
      ).files;
      const out = await cold.analyse(files, request({ cpu_ms: 1_000 }));
      expect(out.map((a) => a.skipped)).toEqual(Array(12).fill(null));
    } finally {
      await cold.close();
    }
  });

  describe('Python files', () => {
    const py = (limits: Partial<AnalysisRequest['limits']> = {}): AnalysisRequest => request(limits, 'python');
    const pySummary = (a: Parameters<typeof summary>[0]) => [
      a.file,
      a.skipped,
      a.lint.map((m) => m.rule).filter((r) => !r.startsWith('ruff/')),
      a.metrics ? a.metrics.loc : null,
    ];

    it('turns nesting bombs, a huge file and a syntax error into findings, counts code only, and still measures the normal file', async () => {
      const normal = 'def add(a, b):\n    return a + b\n';
      const files = inlineSubmission({
        'brackets.py': `x = ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`,
        'sums.py': `x = ${Array(20_000).fill('1').join(' + ')}\n`,
        'big.py': `X = [${'"abcdefgh",\n'.repeat(30_000)}]\n`,
        'padded.py': `"""${'doc line\n'.repeat(40_000)}"""\n${'# note\n'.repeat(20_000)}${normal}`,
        'broken.py': 'def f(:\n    pass\n',
        'ok.py': normal,
      }).files;
      const out = await pool.analyse(files, py({ max_code_kb: 256 }));
      expect(out.map(pySummary)).toEqual([
        ['brackets.py', 'too_deep', ['analysis.too_deep'], null],
        ['sums.py', 'too_deep', ['analysis.too_deep'], null],
        ['big.py', 'too_large', ['analysis.too_large'], null],
        ['padded.py', null, [], 2],
        ['broken.py', 'parse_error', ['parse-error'], null],
        ['ok.py', null, [], 2],
      ]);
    });

    it('stops a Python file at its CPU budget and keeps working', async () => {
      const tiny = createAnalysisPool({ threads: 1 });
      try {
        const heavyPy = Array.from(
          { length: 20_000 },
          (_, i) =>
            `def f${i}(a):\n    if a and a > 1:\n        for x in a:\n            while x:\n                a = a or x\n    return a\n`,
        ).join('\n');
        const [slow] = await tiny.analyse(
          inlineSubmission({ 'slow.py': heavyPy }).files,
          py({ cpu_ms: 300, max_code_kb: 8192 }),
        );
        expect(pySummary(slow as never)).toEqual(['slow.py', 'cpu_budget', ['analysis.cpu_budget'], null]);
        const [after] = await tiny.analyse(inlineSubmission({ 'ok.py': 'X = 1\n' }).files, py({ cpu_ms: 300 }));
        expect(pySummary(after as never)).toEqual(['ok.py', null, [], 1]);
      } finally {
        await tiny.close();
      }
    });

    it('never charges a file for loading ruff and the grammar on a cold thread', async () => {
      // The load (≈ 1.4 s of CPU: WebAssembly compilation and ruff's first check) is far above this budget.
      const cold = createAnalysisPool({ threads: 1 });
      try {
        const files = inlineSubmission({
          'a.py': 'def f(x):\n    return [i for i in x if i]\n',
          'b.py': 'import os\n',
        }).files;
        const out = await cold.analyse(files, py({ cpu_ms: 300 }));
        expect(out.map(pySummary)).toEqual([
          ['a.py', null, [], 2],
          ['b.py', null, [], 1],
        ]);
        expect(out[1]?.lint.map((m) => m.rule)).toEqual(['ruff/F401']);
      } finally {
        await cold.close();
      }
    });
  });
});

describe('ESLint in a lint thread (one bundle, compiled through a V8 code cache)', () => {
  const code = 'var unused = 1;\nfunction f(a) { if (a == null) { return y; } return a; }\nmodule.exports = { f };\n';
  const files = inlineSubmission({ 'solution.js': code }).files;
  const lintOf = async (cacheDir?: string) => {
    const p = createAnalysisPool({ threads: 1, ...(cacheDir ? { cacheDir } : {}) });
    try {
      const [a] = await p.analyse(files, request());
      return a?.lint.map((m) => [m.rule, m.line, m.column, m.message]);
    } finally {
      await p.close();
    }
  };

  it('keeps the code cache its first thread made, lints the same with and without it, and survives a damaged one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evigrade-lint-cache-'));
    try {
      const none = await lintOf();
      expect(none).toContainEqual(['eslint/no-undef', 2, 41, "'y' is not defined."]);
      expect(await lintOf(dir)).toEqual(none);
      const kept = readdirSync(join(dir, 'lint'));
      expect(kept).toHaveLength(1);
      const cache = join(dir, 'lint', kept[0] as string);
      expect(statSync(cache).size).toBeGreaterThan(100_000);
      // A second thread starts from the cache (V8 accepts it: the file is left as it was) and lints the same.
      const made = readFileSync(cache);
      expect(await lintOf(dir)).toEqual(none);
      expect(readFileSync(cache).equals(made)).toBe(true);
      // A damaged cache is refused by V8: the bundle compiles from source, lints the same, and the cache is made again.
      writeFileSync(cache, Buffer.alloc(4096, 7));
      expect(await lintOf(dir)).toEqual(none);
      expect(statSync(cache).size).toBeGreaterThan(100_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
