// Bundles the grader's own compiled modules (dist/**) and the many-file dependencies every command loads (zod: ≈ 95
// ES-module files; yaml: ≈ 70 CommonJS files; pino with its helpers: ≈ 30) into dist/bundle/: main.js, which
// bin/evigrade.js starts, plus one chunk per lazily loaded command or stage (esbuild's code splitting keeps every
// dynamic import() lazy). Node 20 has no compile cache for ES modules, and each module file costs a resolution, a read
// and a compile at every start: importing `grade` took ≈ 190 ms of CPU from ≈ 190 files and ≈ 90 ms from the bundle
// with zod in it; yaml and pino in it too took ≈ 16 ms more off an empty `grade` (bench/README.md). Every other
// package stays external, loaded by node as usual: some resolve files of their own at run time (piscina's worker,
// native addons; pino's transports would too, and the grader uses none, only its synchronous destination).
//
// A module's `import.meta.url` is rewritten to the URL of its compiled file in dist/, which stays in place: paths it
// resolves (createRequire, the lint worker, the harness, the report page's script) are the same bundled or not.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_BUNDLE } from './node-bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const out = join(dist, 'bundle');
const BUNDLED_PACKAGES = new Set(['zod', 'yaml', 'pino']);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies)
  .filter((d) => !BUNDLED_PACKAGES.has(d))
  .flatMap((d) => [d, `${d}/*`]);

// A bundled CommonJS package's require() of a node built-in (yaml's `process`, pino's `os`) goes through esbuild's
// __require, which calls the `require` in scope: every chunk gets one of its own.
const REQUIRE_SHIM =
  "import { createRequire as __evigradeRequire } from 'node:module'; const require = __evigradeRequire(import.meta.url);";

/** Each of our modules keeps its own location: import.meta.url becomes its dist/ file's URL, relative to the chunk. */
const ownLocation = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(dist + sep) || args.path.startsWith(out + sep)) return undefined;
      const rel = relative(out, args.path).split(sep).join('/');
      const text = readFileSync(args.path, 'utf8');
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`),
        loader: 'js',
      };
    });
  },
};

rmSync(out, { recursive: true, force: true }); // chunk names carry hashes: a stale chunk would never be replaced
await build({
  ...NODE_BUNDLE,
  format: 'esm',
  splitting: true,
  entryPoints: [join(dist, 'main.js')],
  outdir: out,
  chunkNames: 'chunk-[hash]',
  external,
  plugins: [ownLocation],
  banner: { js: REQUIRE_SHIM },
});
