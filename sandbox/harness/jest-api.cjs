'use strict';
// `expect` (Jest's real package, guarded) and the `jest` object (jest-mock).
// Both load only when the hidden tests mention them, but always before any
// student code, so the matcher registry is snapshotted untouched.
const P = require('./primordials.cjs');

const ASYMMETRIC = ['any', 'anything', 'arrayContaining', 'arrayOf', 'closeTo', 'objectContaining', 'stringContaining', 'stringMatching'];
const JEST_MATCHERS = Symbol.for('$$jest-matchers-object');
const INTERNAL_MATCHER = Symbol.for('$$jest-internal-matcher');

function createExpect(integrity, tamper, guard) {
  const { expect: realExpect } = require('expect');
  // Built-in matchers refuse received values that would decide their own comparison.
  guard.wrapMatchers(globalThis[JEST_MATCHERS].matchers, INTERNAL_MATCHER);
  // Every call first proves the environment is untouched.
  function expect(...args) {
    const v = integrity.verify();
    if (v) {
      tamper('tampering.intrinsics', v);
      throw new P.Error('evigrade: the test environment was tampered with (' + v + '); this assertion cannot be trusted');
    }
    return P.ReflectApply(realExpect, undefined, args);
  }
  // Asymmetric matchers count only when test code made them: everything these return is branded.
  const branding = (target, source) => (k) => {
    const fn = source[k];
    target[k] = typeof fn === 'function' ? (...a) => guard.brand(P.ReflectApply(fn, source, a)) : fn;
  };
  for (const k of Reflect.ownKeys(realExpect)) {
    if (k === 'length' || k === 'name' || k === 'prototype') continue;
    if (k === 'not') {
      const not = {};
      for (const n of Reflect.ownKeys(realExpect.not)) branding(not, realExpect.not)(n);
      expect.not = P.ObjectFreeze(not);
    } else if (ASYMMETRIC.includes(k)) branding(expect, realExpect)(k);
    else expect[k] = realExpect[k];
  }
  P.ObjectFreeze(expect);
  integrity.watch('expect', expect, true);
  integrity.watch('jest-matchers', globalThis[JEST_MATCHERS].matchers, true);
  return { expect, realExpect };
}

function createJestObject(getState, guard) {
  let mocker = null;
  const m = () => {
    if (!mocker) mocker = new (require('jest-mock').ModuleMocker)(globalThis);
    return mocker;
  };
  const unsupported = (name) => () => { throw new P.Error('jest.' + name + ' is not supported by the Evigrade harness'); };
  const jest = P.ObjectFreeze({
    // Mocks count only when test code made them (a submission's look-alike is refused by the mock matchers).
    fn: (...a) => guard.brand(m().fn(...a)),
    spyOn: (...a) => guard.brand(m().spyOn(...a)),
    mocked: (x) => x,
    replaceProperty: (...a) => m().replaceProperty(...a),
    isMockFunction: (f) => m().isMockFunction(f),
    clearAllMocks: () => { m().clearAllMocks(); return jest; },
    resetAllMocks: () => { m().resetAllMocks(); return jest; },
    restoreAllMocks: () => { m().restoreAllMocks(); return jest; },
    setTimeout: (ms) => { const s = getState(); if (s) s.defaultTimeout = ms; return jest; },
    useFakeTimers: unsupported('useFakeTimers'),
    useRealTimers: () => jest,
    mock: unsupported('mock'),
    retryTimes: unsupported('retryTimes'),
  });
  return jest;
}

module.exports = { createExpect, createJestObject };
