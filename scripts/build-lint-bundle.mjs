// Bundles what a lint thread loads of ESLint (its Linter, the FlatConfigArray lint.ts normalises configs with, and
// the `globals` table) into one CommonJS file, dist/vendor/eslint-linter.cjs. A lint thread compiles it through
// vm.Script with a V8 code cache kept in the grader's cache directory (src/adapters/analysis/eslint-bundle.ts):
// one file instead of ≈ 150 modules to resolve, read and compile at every thread's start.
import { build } from 'esbuild';
import { NODE_BUNDLE } from './node-bundle.mjs';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const eslintDir = dirname(require.resolve('eslint/package.json'));
const out = join(root, 'dist', 'vendor');
mkdirSync(out, { recursive: true });
const scratch = mkdtempSync(join(tmpdir(), 'evigrade-lint-bundle-'));
const entry = join(scratch, 'entry.cjs');
writeFileSync(
  entry,
  [
    `exports.Linter = require(${JSON.stringify(join(eslintDir, 'lib', 'universal.js'))}).Linter;`,
    `exports.FlatConfigArray = require(${JSON.stringify(join(eslintDir, 'lib', 'config', 'flat-config-array.js'))}).FlatConfigArray;`,
    `exports.globals = require(${JSON.stringify(require.resolve('globals'))});`,
    '',
  ].join('\n'),
);
await build({
  entryPoints: [entry],
  outfile: join(out, 'eslint-linter.cjs'),
  ...NODE_BUNDLE,
  // ESLint validates every rule's options with ajv 6, which resolves each schema's id through uri-js: its first calls
  // compile uri-js's very large RFC 3986 regular expressions (≈ 15 ms of every lint thread's first file, measured).
  // fast-uri is the same API without them (ajv 8 moved to it); ajv 6 calls only parse, serialize and resolve of it
  // (and `test` for the "full" uri format, which ESLint's ajv does not use).
  alias: { 'uri-js': require.resolve('fast-uri') },
});
rmSync(scratch, { recursive: true, force: true });
