// Bundles the in-sandbox harness (with Jest's real `expect`, `jest-mock` and
// `jest-each`) into sandbox/dist, so a sandbox needs two files, not node_modules.
import { build } from 'esbuild';
import { NODE_BUNDLE } from './node-bundle.mjs';
import './build-userland.mjs'; // the in-realm ports the harness bundle includes (sandbox/harness/gen/userland.cjs)
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'sandbox', 'dist');
mkdirSync(out, { recursive: true });
// Jest's equality asks `isAsymmetric` of both sides before anything else: patched to count only the asymmetric
// matchers test code made (sandbox/harness/asymmetric-gate.cjs says why). The build fails if the function changed.
const ISASYMMETRIC = "function isAsymmetric(obj) {\n  return !!obj && isA('Function', obj.asymmetricMatch);\n}";
const gate = join(root, 'sandbox', 'harness', 'asymmetric-gate.cjs');
const asymmetricGate = {
  name: 'asymmetric-gate',
  setup(b) {
    b.onLoad({ filter: /[\\/]@jest[\\/]expect-utils[\\/]build[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (source.split(ISASYMMETRIC).length !== 2)
        throw new Error(`${args.path}: isAsymmetric is not the function the asymmetric gate patches`);
      const patched = ISASYMMETRIC.replace(');\n}', `) && require(${JSON.stringify(gate)}).counts(obj);\n}`);
      return { contents: source.replace(ISASYMMETRIC, patched), loader: 'js' };
    });
  },
};
await build({
  entryPoints: [join(root, 'sandbox', 'harness', 'main.cjs')],
  outfile: join(out, 'harness.cjs'),
  ...NODE_BUNDLE,
  // Two of Jest's dependencies replaced by what they amount to in a job (each stub says why).
  alias: {
    'supports-color': join(root, 'sandbox', 'harness', 'stubs', 'supports-color.cjs'),
    'graceful-fs': join(root, 'sandbox', 'harness', 'stubs', 'graceful-fs.cjs'),
  },
  plugins: [asymmetricGate],
});
copyFileSync(join(root, 'sandbox', 'harness', 'hooks.mjs'), join(out, 'hooks.mjs'));
for (const f of ['boot.cjs', 'snapshot.cjs']) copyFileSync(join(root, 'sandbox', 'harness', f), join(out, f));
