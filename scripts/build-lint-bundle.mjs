// Bundles what a lint thread loads of ESLint (its Linter, the FlatConfigArray lint.ts normalises configs with, and
// the `globals` table) into one CommonJS file, dist/vendor/eslint-linter.cjs. A lint thread compiles it through
// vm.Script with a V8 code cache kept in the grader's cache directory (src/adapters/analysis/eslint-bundle.ts):
// one file instead of ≈ 150 modules to resolve, read and compile at every thread's start.
import { build } from 'esbuild';
import { NODE_BUNDLE } from './node-bundle.mjs';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

// eslint-scope's PatternVisitor extends esrecurse's Visitor, whose constructor copies every node type's child keys
// (≈ 170 of them, into a fresh object) on each construction: once for every declaration, parameter and assignment
// target of every linted file. In the steady state that copy and its garbage were ≈ 13 % of a lint's samples (plus
// collector time). The merged table depends only on the keys object handed in (ESLint's, constant), and nothing
// writes to it, so each is merged once and shared. The build fails if esrecurse's text is not the one patched.
const VISITOR_KEYS_COPY = `this.__childVisitorKeys = options.childVisitorKeys
            ? Object.assign({}, estraverse.VisitorKeys, options.childVisitorKeys)
            : estraverse.VisitorKeys;`;
const MERGED_ONCE = `var mergedChildKeys = new WeakMap();
    function mergeChildKeys(keys) {
        var merged = mergedChildKeys.get(keys);
        if (!merged) mergedChildKeys.set(keys, merged = Object.assign({}, estraverse.VisitorKeys, keys));
        return merged;
    }

    function Visitor(visitor, options) {`;
const visitorKeysOnce = {
  name: 'esrecurse-visitor-keys-once',
  setup(b) {
    b.onLoad({ filter: /[\\/]esrecurse[\\/]esrecurse\.js$/ }, ({ path }) => {
      const text = readFileSync(path, 'utf8');
      if (!text.includes(VISITOR_KEYS_COPY) || !text.includes('    function Visitor(visitor, options) {'))
        throw new Error(`${path}: not the esrecurse Visitor this build patches (scripts/build-lint-bundle.mjs)`);
      const patched = text.replace('    function Visitor(visitor, options) {', MERGED_ONCE).replace(
        VISITOR_KEYS_COPY,
        `this.__childVisitorKeys = options.childVisitorKeys
            ? mergeChildKeys(options.childVisitorKeys)
            : estraverse.VisitorKeys;`,
      );
      return { contents: patched, loader: 'js' };
    });
  },
};
await build({
  entryPoints: [entry],
  outfile: join(out, 'eslint-linter.cjs'),
  ...NODE_BUNDLE,
  // ESLint validates every rule's options with ajv 6, which resolves each schema's id through uri-js: its first calls
  // compile uri-js's very large RFC 3986 regular expressions (≈ 15 ms of every lint thread's first file, measured).
  // fast-uri is the same API without them (ajv 8 moved to it); ajv 6 calls only parse, serialize and resolve of it
  // (and `test` for the "full" uri format, which ESLint's ajv does not use).
  alias: { 'uri-js': require.resolve('fast-uri') },
  plugins: [visitorKeysOnce],
});
rmSync(scratch, { recursive: true, force: true });
