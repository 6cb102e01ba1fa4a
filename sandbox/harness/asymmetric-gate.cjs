'use strict';
// Which values Jest's equality treats as asymmetric matchers: only those test code made (guard.cjs brands them).
// scripts/build-harness.mjs patches @jest/expect-utils's `isAsymmetric` to ask `counts` (the build fails if Jest's
// source no longer has the function it patches). A value of the submission's carrying an `asymmetricMatch` method is
// then compared as the plain object it is, so it never hears the other side of a comparison — whether it was there
// from the start (guard.cjs's walk flags that before Jest runs) or planted while Jest compares (a getter Jest reads
// on the way, `Symbol.toStringTag` or `nodeType` on the value's class, runs with the compared object as `this` and
// can put one there after the walk: red team, issue 30, third round). Before a guard exists nothing counts.
let counts = null;

module.exports = {
  counts: (v) => counts !== null && counts(v),
  /** Set by createGuard (guard.cjs), before any test or submission code runs. */
  setCounts(fn) {
    counts = fn;
  },
};
