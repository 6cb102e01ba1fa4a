// Lint + AST metrics cost per submission in the warm worker pool, beside the
// usual peer (one `eslint` CLI process per submission with the same rules),
// measured in the same run. Wall time; the pool runs one submission at a time.
import './cpu.mjs'; // first: every command below starts without machine-wide Node start-up settings
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { createAnalysisPool } = await import(join(ROOT, 'dist', 'adapters', 'analysis', 'pool.js'));
const { DEFAULT_LINT_RULES, LintSpecSchema } = await import(join(ROOT, 'dist', 'domain', 'lint.js'));
const { AnalysisLimitsSchema } = await import(join(ROOT, 'dist', 'domain', 'rubric.js'));
const N = Number(process.env.BENCH_N ?? 20);

// A typical student submission: ~60 lines, a few findings.
const SOURCE = `'use strict';
var cache = {};
function wordCount(text) {
  const counts = {};
  if (text == null) return counts;
  for (const word of text.toLowerCase().split(/[^a-z0-9']+/)) {
    if (word === '') continue;
    counts[word] = (counts[word] || 0) + 1;
  }
  return counts;
}
function top(text, n) {
  let entries = Object.entries(wordCount(text));
  entries.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return entries.slice(0, n).map(([w]) => w);
}
function fib(n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
function matrix(rows, cols) {
  const m = [];
  for (let i = 0; i < rows; i++) {
    const row = [];
    for (let j = 0; j < cols; j++) row.push(i * cols + j);
    m.push(row);
  }
  return m;
}
module.exports = { wordCount, top, fib, matrix, cache };
`.repeat(2);

const work = mkdtempSync(join(tmpdir(), 'evigrade-lintbench-'));
try {
  const files = [{ path: 'solution.js', content: SOURCE, sha256: '', bytes: Buffer.byteLength(SOURCE) }];
  const spec = { lint: LintSpecSchema.parse({}), language: 'javascript', limits: AnalysisLimitsSchema.parse({}) };
  const pool = createAnalysisPool({ threads: 1 });
  // Warm: the pool lives as long as a grading run, so its JIT is warm after a few submissions.
  for (let i = 0; i < 50; i++) await pool.analyse(files, spec);
  let t0 = performance.now();
  for (let i = 0; i < N; i++) await pool.analyse(files, spec);
  const warm = (performance.now() - t0) / N;
  await pool.close();

  writeFileSync(
    join(work, 'eslint.config.mjs'),
    `import globals from ${JSON.stringify(join(ROOT, 'node_modules', 'globals', 'index.js'))};\nexport default [{ files: ['**/*.js'], languageOptions: { ecmaVersion: 'latest', sourceType: 'commonjs', globals: { ...globals.node, ...globals.commonjs } }, rules: ${JSON.stringify(DEFAULT_LINT_RULES)} }];\n`,
  );
  const dirs = Array.from({ length: N }, (_, i) => {
    const d = join(work, `s${i}`);
    mkdirSync(d);
    writeFileSync(join(d, 'solution.js'), SOURCE);
    return d;
  });
  const eslint = join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
  t0 = performance.now();
  for (const d of dirs)
    spawnSync(process.execPath, [eslint, '--config', join(work, 'eslint.config.mjs'), '--format', 'json', d], {
      encoding: 'utf8',
    });
  const cli = (performance.now() - t0) / N;

  console.log(`Lint + metrics per submission (N=${N}, ${SOURCE.split('\n').length} lines each)\n`);
  console.log('| case | wall / submission |\n|---|---|');
  console.log(`| warm worker pool: ESLint Linter + typescript-estree metrics | ${warm.toFixed(1)} ms |`);
  console.log(`| peer: one \`eslint\` CLI process per submission (lint only) | ${cli.toFixed(1)} ms |`);
  console.log(`\npool is ${(cli / warm).toFixed(0)}x cheaper than the CLI per submission (aim: at least 50x)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
