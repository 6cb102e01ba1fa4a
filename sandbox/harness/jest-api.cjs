'use strict';
// `expect` (Jest's real package, guarded) and the `jest` object (jest-mock).
// Both load only when the hidden tests mention them, but always before any
// student code, so the matcher registry is snapshotted untouched.
const P = require('./primordials.cjs');
const { types } = require('node:util');
const { descriptorOnChain } = require('./guard.cjs');

const WeakSetAdd = Function.prototype.call.bind(WeakSet.prototype.add);
const WeakSetHas = Function.prototype.call.bind(WeakSet.prototype.has);
const getProto = Object.getPrototypeOf;

const ASYMMETRIC = ['any', 'anything', 'arrayContaining', 'arrayOf', 'closeTo', 'objectContaining', 'stringContaining', 'stringMatching'];
const JEST_MATCHERS = Symbol.for('$$jest-matchers-object');
const INTERNAL_MATCHER = Symbol.for('$$jest-internal-matcher');

function createExpect(integrity, tamper, guard) {
  const { expect: realExpect } = require('expect');
  // Built-in matchers refuse received values that would decide their own comparison.
  guard.wrapMatchers(globalThis[JEST_MATCHERS].matchers, INTERNAL_MATCHER);
  // Every call first proves the environment is untouched (also before extend and addEqualityTesters take the watched
  // state anew, so a change made before them is not taken with it).
  function checkIntact(what) {
    const v = integrity.verify();
    if (v) {
      tamper('tampering.intrinsics', v);
      throw new P.Error('evigrade: the test environment was tampered with (' + v + '); this ' + what + ' cannot be trusted');
    }
  }
  function expect(...args) {
    checkIntact('assertion');
    const out = P.ReflectApply(realExpect, undefined, args);
    const received = args[0];
    if (received !== null && (typeof received === 'object' || typeof received === 'function')) settledBy(out, received);
    return out;
  }
  /**
   * `.resolves` / `.rejects` on a value the submission may have made. Jest calls the value's own `then` and awaits
   * whatever it returns, so a `then` that never calls back (and returns a settled promise) skips the assertion and
   * the test passes. These assert on a promise the harness makes instead, settled only through the value's
   * callbacks (through Promise.prototype.then itself for a genuine promise, whatever `then` it carries): one that
   * never calls back times the test out, like a promise that never settles. A `then` the value computes (a Proxy,
   * an accessor) could answer Jest differently from us, so it fails the assertion, as guard.cjs fails a
   * self-deciding value. Anything else is Jest's own behaviour.
   */
  function settledBy(out, received) {
    for (const key of ['resolves', 'rejects']) {
      P.ObjectDefineProperty(out, key, {
        configurable: true,
        enumerable: true,
        get() {
          // Jest's .resolves and .rejects also take a function returning the promise, and call it first.
          const value = typeof received === 'function' ? received() : received;
          if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return P.ReflectApply(realExpect, undefined, [value])[key];
          // Reading `then` may run code or is past checking: a Proxy or an accessor on the chain, or a chain too long.
          const thenD = descriptorOnChain(value, 'then');
          if (thenD && (thenD.proxy || (!thenD.intrinsic && !('value' in thenD)))) {
            const why = "the received value's then is computed (a Proxy or an accessor)";
            tamper('tampering.self_equality', '.' + key + ': ' + why);
            throw new P.Error('evigrade: .' + key + ' cannot decide: ' + why + '. The submission would decide whether the assertion runs, so this assertion fails.');
          }
          const then = value.then;
          if (typeof then !== 'function') return P.ReflectApply(realExpect, undefined, [value])[key];
          let resolve;
          let reject;
          const settled = new P.OrigPromise((ok, fail) => {
            resolve = ok;
            reject = fail;
          });
          // Outside the executor: a `then` that throws fails the assertion at once, as in Jest, not as a rejection.
          if (types.isPromise(value)) P.PromiseThen(value, resolve, reject);
          else P.ReflectApply(then, value, [resolve, reject]);
          return P.ReflectApply(realExpect, undefined, [settled])[key];
        },
      });
    }
  }
  // expect.any(C) asks `instanceof C`: C is read as toBeInstanceOf's class is (a Proxy's answers asked once; a class
  // answering `instanceof` itself would decide the match, and fails it).
  function checkSample(k, args) {
    if (k === 'any' && args.length > 0) args[0] = guard.classAsData('expect.any', args[0]);
    return args;
  }
  // expect.extend adds a custom matcher's factories (as Jest adds them to its own expect) on objects of their own, the
  // prototypes of the tests' expect and expect.not, which stay frozen as before.
  const extensions = { expect: P.ObjectCreate(getProto(expect)), not: P.ObjectCreate(Object.prototype) };
  P.ObjectSetPrototypeOf(expect, extensions.expect);
  const not = P.ObjectCreate(extensions.not);
  const factories = brandingFactories(guard, checkSample);
  for (const k of Reflect.ownKeys(realExpect)) {
    if (k === 'length' || k === 'name' || k === 'prototype') continue;
    if (k === 'not') {
      for (const n of Reflect.ownKeys(realExpect.not)) factories.offer(not, realExpect.not, n);
      expect.not = P.ObjectFreeze(not);
    } else if (ASYMMETRIC.includes(k)) factories.offer(expect, realExpect, k);
    else expect[k] = realExpect[k];
  }
  // The equality testers every toEqual consults: a live array a submission can reach through a caught assertion
  // error (matcherResult → an asymmetric matcher's getMatcherContext().customTesters). It may change only through
  // expect.addEqualityTesters; anything else is seen at the next expect() (red-team pass, hostile class 10).
  const testers = globalThis[JEST_MATCHERS].customEqualityTesters;
  // Custom matchers (expect.extend) and testers a hidden test adds join the watched state: added through the API,
  // not tampering. A custom matcher is also an asymmetric matcher in Jest (expect.toBeWithinRange(1, 10),
  // expect.not.toBeWithinRange(…)): Jest defines its factories on its own expect, and the tests' expect offers them
  // branded, as it offers expect.any. Only the tests hold this expect (the submission's realm has none: docs/harness.md).
  const realExtend = realExpect.extend;
  expect.extend = (matchers) => {
    checkIntact('expect.extend');
    try {
      return P.ReflectApply(realExtend, realExpect, [matchers]);
    } finally {
      // Jest defines the factories one matcher at a time: those it made before refusing one are offered too.
      const names = matchers !== null && matchers !== undefined ? P.ObjectKeys(matchers) : [];
      for (let i = 0; i < names.length; i++) {
        factories.offer(expect, realExpect, names[i], extensions.expect);
        factories.offer(not, realExpect.not, names[i], extensions.not);
      }
      for (const label of ['jest-matchers', 'expect extensions', 'expect.not extensions']) integrity.rewatch(label);
    }
  };
  expect.addEqualityTesters = (...a) => {
    checkIntact('expect.addEqualityTesters');
    const out = P.ReflectApply(realExpect.addEqualityTesters, realExpect, a);
    integrity.rewatch('jest-equality-testers');
    return out;
  };
  P.ObjectFreeze(expect);
  integrity.watch('expect', expect, true);
  // Not frozen (extend adds to them): a property appears only through expect.extend, or the next expect() says so.
  integrity.watch('expect extensions', extensions.expect, true);
  integrity.watch('expect.not extensions', extensions.not, true);
  integrity.watch('jest-matchers', globalThis[JEST_MATCHERS].matchers, true);
  integrity.watch('jest-equality-testers', testers, true);
  integrity.watch('jest-matchers-object', globalThis[JEST_MATCHERS], true);
  return { expect, realExpect };
}

/**
 * The tests' asymmetric-matcher factories (`expect.any`, `expect.not.objectContaining`, a custom matcher's
 * `expect.toBeWithinRange`): each brands what it returns, so Jest's equality counts it (asymmetric-gate.cjs). One fixed
 * function per name, calling the factory Jest last defined under it (a later expect.extend of the same name replaces
 * the matcher, as in Jest), defined on `holder` (the target itself, or the object it inherits extensions from). A name
 * the tests' expect already uses for something else (`assertions`, `extend`) keeps it.
 */
function brandingFactories(guard, checkSample) {
  const current = new WeakMap(); // target → SafeMap(name → Jest's factory)
  function offer(target, source, k, holder = target) {
    const d = P.ObjectGetOwnPropertyDescriptor(source, k);
    if (!d || typeof d.value !== 'function') return;
    let made = current.get(target);
    if (!made) current.set(target, (made = new P.SafeMap()));
    const mine = P.MapHas(made, k);
    P.MapSet(made, k, d.value);
    if (mine || k in target) return;
    const factory = (...a) => guard.brand(P.ReflectApply(P.MapGet(made, k), source, checkSample(k, a)));
    P.ObjectDefineProperty(holder, k, { value: factory, enumerable: true, writable: false, configurable: false });
  }
  return { offer };
}

function createJestObject(getState, guard) {
  let mocker = null;
  // Every function jest-mock itself makes: jest.spyOn hands back a function that merely claims `_isMockFunction`
  // as it is, and that one must not be branded a mock (red-team pass, hostile class 10).
  const made = new WeakSet();
  const m = () => {
    if (!mocker) {
      mocker = new (require('jest-mock').ModuleMocker)(globalThis);
      const make = mocker._makeComponent;
      mocker._makeComponent = function (...a) {
        const c = P.ReflectApply(make, this, a);
        if (typeof c === 'function') WeakSetAdd(made, c);
        return c;
      };
    }
    return mocker;
  };
  const ifMade = (f) => (f !== null && typeof f === 'function' && WeakSetHas(made, f) ? guard.brand(f) : f);
  const unsupported = (name) => () => { throw new P.Error('jest.' + name + ' is not supported by the Evigrade harness'); };
  const jest = P.ObjectFreeze({
    // Mocks count only when test code made them (a submission's look-alike is refused by the mock matchers).
    fn: (...a) => ifMade(m().fn(...a)),
    spyOn: (...a) => ifMade(m().spyOn(...a)),
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
