// Bundles the grader's own compiled modules (dist/**) and the many-file dependencies every command loads (zod: ≈ 95
// ES-module files; yaml: ≈ 70 CommonJS files; pino with its helpers: ≈ 30) into one CommonJS script,
// dist/bundle/main.cjs, which bin/evigrade.js compiles through vm.Script with a V8 code cache kept per command in the
// grader's cache directory. Node 20 has no compile cache for modules: every start parsed and compiled our code again
// (≈ 20 ms of an empty `grade`, and every function a command runs compiled lazily on top), and a module file costs
// a resolution and a read besides (bench/README.md, ninth pass). Every dynamic import() of our own modules stays lazy:
// esbuild wraps each such module in an init function its import() calls, so a module's body runs only when a command
// uses it (and the code cache holds only what ran). Every other package stays external, loaded by node as usual:
// some resolve files of their own at run time (piscina's worker, native addons; pino's transports would too, and the
// grader uses none, only its synchronous destination).
//
// A module's `import.meta.url` is rewritten to the URL of its compiled file in dist/, which stays in place: paths it
// resolves (createRequire, the lint worker, the harness, the report page's script) are the same bundled or not.
// The sources are ES modules, so the script is strict mode throughout. Beside it, main.json records its SHA-256 for
// the code cache's key (computed here, so no start hashes 1 MB) and the commands' names (one cache each).
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { NODE_BUNDLE } from './node-bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const out = join(dist, 'bundle');
const BUNDLED_PACKAGES = new Set(['zod', 'yaml', 'pino']);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies)
  .filter((d) => !BUNDLED_PACKAGES.has(d))
  .flatMap((d) => [d, `${d}/*`]);

/** Each of our modules keeps its own location: import.meta.url becomes its dist/ file's URL, relative to the script. */
const ownLocation = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(dist + sep) || args.path.startsWith(out + sep)) return undefined;
      const rel = relative(out, args.path).split(sep).join('/');
      const text = readFileSync(args.path, 'utf8');
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, __evigradeScriptUrl).href`),
        loader: 'js',
      };
    });
  },
};

rmSync(out, { recursive: true, force: true }); // no file of an older layout (the code-split ES-module chunks) stays
const script = join(out, 'main.cjs');
await build({
  ...NODE_BUNDLE,
  format: 'cjs',
  entryPoints: [join(dist, 'main.js')],
  outfile: script,
  external,
  // A dynamic import() in a vm.Script needs a callback node 20 offers only behind a flag (or with a warning on every
  // run): the packages a command imports lazily (dockerode, pg, PGlite, the judge client, cli-progress) all have a
  // CommonJS entry, and are required instead, lazily still, each at the point of its import().
  supported: { 'dynamic-import': false },
  plugins: [ownLocation],
  banner: { js: "'use strict';const __evigradeScriptUrl=require('node:url').pathToFileURL(__filename).href;" },
});
const sha256 = createHash('sha256').update(readFileSync(script)).digest('hex');
const { COMMAND_NAMES: commands } = await import(pathToFileURL(join(dist, 'main.js')).href);
writeFileSync(join(out, 'main.json'), `${JSON.stringify({ sha256, commands })}\n`);
