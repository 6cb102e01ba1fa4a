// The build-time patches that make Jest count only the asymmetric matchers test code made
// (sandbox/harness/asymmetric-gate.cjs says why, and keeps the brand check). Jest's equality asks `isAsymmetric` of
// both sides before anything else. Its failure messages ask their own `isAsymmetricMatcher`
// (jest-matcher-utils' replaceMatchedToAsymmetricMatcher, behind every toEqual, toStrictEqual and toMatchObject diff)
// of a deep copy of both sides, then call a matcher found there with the other side: a received value carrying an
// asymmetricMatch (planted while Jest compared, or a class getter's value the copy reads) would be handed the value
// expected there — the hidden answer — whenever a test fails. Both checks ask the gate, first (no code of the value
// runs); and the message's deep copy hands over a counting matcher itself rather than a copy the gate never saw, so
// Jest's messages about test-made matchers stay Jest's. A patched function that changed fails the build.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const EXPECT_UTILS = /[\\/]@jest[\\/]expect-utils[\\/]build[\\/]index\.js$/;
const MATCHER_UTILS = /[\\/]jest-matcher-utils[\\/]build[\\/]index\.js$/;

/** Each patch: the package file, the function's exact source in Jest 30.5.2, and its replacement given the gate call. */
export const PATCHES = [
  {
    file: EXPECT_UTILS,
    what: 'isAsymmetric',
    from: "function isAsymmetric(obj) {\n  return !!obj && isA('Function', obj.asymmetricMatch);\n}",
    to: (counts) =>
      `function isAsymmetric(obj) {\n  return !!obj && isA('Function', obj.asymmetricMatch) && ${counts('obj')};\n}`,
  },
  {
    file: MATCHER_UTILS,
    what: 'isAsymmetricMatcher',
    from: "function isAsymmetricMatcher(data) {\n  const type = (0, _getType.getType)(data);\n  return type === 'object' && typeof data.asymmetricMatch === 'function';\n}",
    to: (counts) =>
      `function isAsymmetricMatcher(data) {\n  const type = (0, _getType.getType)(data);\n  return type === 'object' && ${counts('data')} && typeof data.asymmetricMatch === 'function';\n}`,
  },
  {
    file: MATCHER_UTILS,
    what: 'deepCyclicCopyReplaceable',
    from: "function deepCyclicCopyReplaceable(value, cycles = new WeakMap()) {\n  if (typeof value !== 'object' || value === null) {\n    return value;\n  } else if",
    to: (counts) =>
      `function deepCyclicCopyReplaceable(value, cycles = new WeakMap()) {\n  if (typeof value !== 'object' || value === null || ${counts('value')}) {\n    return value;\n  } else if`,
  },
];

/** `source` of the package file at `path` with its patches applied (their names added to `applied`); throws if one no longer fits. */
export function patchJestSource(path, source, gatePath, applied = new Set()) {
  const counts = (v) => `require(${JSON.stringify(gatePath)}).counts(${v})`;
  let out = source;
  for (const p of PATCHES.filter((x) => x.file.test(path))) {
    if (out.split(p.from).length !== 2)
      throw new Error(`${path}: ${p.what} is not the function the asymmetric gate patches`);
    out = out.replace(p.from, () => p.to(counts));
    applied.add(p.what);
  }
  return out;
}

/** The esbuild plugin: every patched package file goes through patchJestSource. */
export function asymmetricGate(root, applied) {
  const gatePath = join(root, 'sandbox', 'harness', 'asymmetric-gate.cjs');
  return {
    name: 'asymmetric-gate',
    setup(b) {
      b.onLoad({ filter: /[\\/](@jest[\\/]expect-utils|jest-matcher-utils)[\\/]build[\\/]index\.js$/ }, (args) => ({
        contents: patchJestSource(args.path, readFileSync(args.path, 'utf8'), gatePath, applied),
        loader: 'js',
      }));
    },
  };
}
