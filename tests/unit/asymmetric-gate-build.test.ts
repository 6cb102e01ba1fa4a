// The build-time patches of Jest's asymmetric-matcher checks (scripts/asymmetric-gate.mjs): each fits the Jest the
// harness bundles exactly once, and a Jest whose function changed fails the build with a message naming it, rather
// than shipping a check that asks any value's asymmetricMatch.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PATCHES, patchJestSource } from '../../scripts/asymmetric-gate.mjs';
import { ROOT } from '../helpers.js';

const req = createRequire(join(ROOT, 'package.json'));
const FILES = [req.resolve('@jest/expect-utils'), req.resolve('jest-matcher-utils')];
const GATE = '/gate.cjs';

describe('the asymmetric gate patches', () => {
  it('apply once each to the bundled Jest, every check asking the gate', () => {
    const applied = new Set<string>();
    const gateCalls = FILES.map((f) => {
      const patched = patchJestSource(f, readFileSync(f, 'utf8'), GATE, applied);
      return [...patched.matchAll(/require\("\/gate\.cjs"\)\.counts\((\w+)\)/g)].map((m) => m[1]);
    });
    expect([gateCalls, [...applied].sort()]).toEqual([[['obj'], ['value', 'data']], PATCHES.map((p) => p.what).sort()]);
  });

  it.each(PATCHES.map((p) => [p.what, p] as const))('fail the build when %s changed', (what, p) => {
    const file = FILES.find((f) => p.file.test(f)) as string;
    const changed = readFileSync(file, 'utf8').replace(p.from, p.from.replace('(', '( '));
    expect(() => patchJestSource(file, changed, GATE)).toThrow(
      `${file}: ${what} is not the function the asymmetric gate patches`,
    );
  });
});
