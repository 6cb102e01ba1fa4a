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
// matchers test code made (sandbox/harness/asymmetric-gate.cjs says why). Its failure messages ask their own
// `isAsymmetricMatcher` (jest-matcher-utils' replaceMatchedToAsymmetricMatcher) of a deep copy of both sides, then
// call the matcher with the other side: patched the same way, the gate asked first (no code of the value runs), and
// the copy hands over a counting matcher itself, not a copy the gate never saw. Otherwise a received value carrying
// an asymmetricMatch (planted while Jest compared) is handed the expected value — the hidden answer — whenever a test
// fails. The build fails if any patched function changed.
const gate = join(root, 'sandbox', 'harness', 'asymmetric-gate.cjs');
const counts = (v) => `require(${JSON.stringify(gate)}).counts(${v})`;
const PATCHES = [
  {
    file: /[\\/]@jest[\\/]expect-utils[\\/]build[\\/]index\.js$/,
    what: 'isAsymmetric',
    from: "function isAsymmetric(obj) {\n  return !!obj && isA('Function', obj.asymmetricMatch);\n}",
    to: `function isAsymmetric(obj) {\n  return !!obj && isA('Function', obj.asymmetricMatch) && ${counts('obj')};\n}`,
  },
  {
    file: /[\\/]jest-matcher-utils[\\/]build[\\/]index\.js$/,
    what: 'isAsymmetricMatcher',
    from: "function isAsymmetricMatcher(data) {\n  const type = (0, _getType.getType)(data);\n  return type === 'object' && typeof data.asymmetricMatch === 'function';\n}",
    to: `function isAsymmetricMatcher(data) {\n  const type = (0, _getType.getType)(data);\n  return type === 'object' && ${counts('data')} && typeof data.asymmetricMatch === 'function';\n}`,
  },
  {
    file: /[\\/]jest-matcher-utils[\\/]build[\\/]index\.js$/,
    what: 'deepCyclicCopyReplaceable',
    from: "function deepCyclicCopyReplaceable(value, cycles = new WeakMap()) {\n  if (typeof value !== 'object' || value === null) {\n    return value;\n  } else if",
    to: `function deepCyclicCopyReplaceable(value, cycles = new WeakMap()) {\n  if (typeof value !== 'object' || value === null || ${counts('value')}) {\n    return value;\n  } else if`,
  },
];
const applied = new Set();
const asymmetricGate = {
  name: 'asymmetric-gate',
  setup(b) {
    b.onLoad({ filter: /[\\/](@jest[\\/]expect-utils|jest-matcher-utils)[\\/]build[\\/]index\.js$/ }, (args) => {
      let source = readFileSync(args.path, 'utf8');
      for (const p of PATCHES.filter((x) => x.file.test(args.path))) {
        if (source.split(p.from).length !== 2)
          throw new Error(`${args.path}: ${p.what} is not the function the asymmetric gate patches`);
        source = source.replace(p.from, p.to);
        applied.add(p.what);
      }
      return { contents: source, loader: 'js' };
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
// A package that moved its code elsewhere would otherwise go unpatched without a word.
for (const p of PATCHES)
  if (!applied.has(p.what)) throw new Error(`the asymmetric gate's patch of ${p.what} was never applied`);
copyFileSync(join(root, 'sandbox', 'harness', 'hooks.mjs'), join(out, 'hooks.mjs'));
for (const f of ['boot.cjs', 'snapshot.cjs']) copyFileSync(join(root, 'sandbox', 'harness', f), join(out, f));
