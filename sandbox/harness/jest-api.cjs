'use strict';
// `expect` (Jest's real package, guarded) and the `jest` object (jest-mock).
// Both load only when the hidden tests mention them, but always before any
// student code, so the matcher registry is snapshotted untouched.
const P = require('./primordials.cjs');

function createExpect(integrity, tamper) {
  const { expect: realExpect } = require('expect');
  // Every call first proves the environment is untouched.
  function expect(...args) {
    const v = integrity.verify();
    if (v) {
      tamper('tampering.intrinsics', v);
      throw new P.Error('evigrade: the test environment was tampered with (' + v + '); this assertion cannot be trusted');
    }
    return P.ReflectApply(realExpect, undefined, args);
  }
  for (const k of Reflect.ownKeys(realExpect)) {
    if (k !== 'length' && k !== 'name' && k !== 'prototype') expect[k] = realExpect[k];
  }
  P.ObjectFreeze(expect);
  integrity.watch('expect', expect, true);
  integrity.watch('jest-matchers', globalThis[Symbol.for('$$jest-matchers-object')].matchers, true);
  return { expect, realExpect };
}

function createJestObject(getState) {
  let mocker = null;
  const m = () => {
    if (!mocker) mocker = new (require('jest-mock').ModuleMocker)(globalThis);
    return mocker;
  };
  const unsupported = (name) => () => { throw new P.Error('jest.' + name + ' is not supported by the Evigrade harness'); };
  const jest = P.ObjectFreeze({
    fn: (...a) => m().fn(...a),
    spyOn: (...a) => m().spyOn(...a),
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
