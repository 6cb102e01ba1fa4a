'use strict';
// What Jest itself calls on a compared value, matcher by matcher (issue 30, fourth round): a rule of guard.cjs that
// refuses a method of the submission's must hold where Jest calls that method, and nowhere else — a per-value rule
// accused honest code (an Array subclass with its own iterator, compared with toEqual, where Jest never iterates an
// array). Read from expect 30's source (expect/build/index.js, @jest/expect-utils):
//   - an array's `some` is called only by ArrayContaining (and its `not`), on the received array at its position;
//     its `every` only by ArrayOf (and NotArrayOf); equality itself (`equals`, iterableEquality, typeEquality,
//     sparseArrayEquality, subsetEquality) never calls an array's or a typed array's methods: iterableEquality stops at
//     `Array.isArray` and `ArrayBuffer.isView` before it looks for an iterator;
//   - the iterator of what toContain and toContainEqual receive is called once, by the matcher (`[...received]`);
//   - `instanceof C` (toBeInstanceOf, toThrow(C), expect.any(C)) reads C's `Symbol.hasInstance` and `prototype`.
// So: the array methods the expected value's asymmetric matchers call are judged (guard.cjs claimsKind), an iterator is
// run once by the harness and what it yields is compared as data (toContainEqual), and an expected class behind a Proxy
// is asked its two answers once, into a stand-in class (a decorator's or logger's Proxy is ordinary code; a
// `Symbol.hasInstance` of its own still decides `instanceof` itself and is refused).
const P = require('./primordials.cjs');
const { types } = require('node:util');

const ownKeys = Reflect.ownKeys;
const uncurry = (fn) => Function.prototype.call.bind(fn);
const MapForEach = uncurry(Map.prototype.forEach);
const SetForEach = uncurry(Set.prototype.forEach);
const FN_HAS_INSTANCE = Function.prototype[Symbol.hasInstance];
const ITERATOR = Symbol.iterator;
// The array methods each of expect's own asymmetric matchers calls on the value it is matched against. One the
// harness does not know (a matcher of expect.extend's) may call anything.
const CALLS_OF_MATCHER = new Map([
  ['ArrayContaining', ['some']],
  ['ArrayOf', ['every']],
  ['Any', []],
  ['Anything', []],
  ['ObjectContaining', []],
  ['StringContaining', []],
  ['StringMatching', []],
  ['CloseTo', []],
]);
const ANY_CALLS = ['some', 'every'];
const WALK_LIMIT = 10000;

/**
 * @param {(v: unknown) => boolean} isBranded  made by test code (an asymmetric matcher, a mock)
 * @param {(o: object, k: PropertyKey) => any} descriptorOnChain  guard.cjs's, runs no code
 */
function createJestReads(isBranded, descriptorOnChain) {
  /** The name of a test-made asymmetric matcher's class, or null (read as data, never through a getter). */
  function matcherKind(m) {
    const am = descriptorOnChain(m, 'asymmetricMatch');
    if (!am || am.intrinsic || am.proxy) return null;
    const c = descriptorOnChain(m, 'constructor');
    const name = c && 'value' in c && typeof c.value === 'function' ? P.ObjectGetOwnPropertyDescriptor(c.value, 'name') : undefined;
    return name && typeof name.value === 'string' ? name.value : '';
  }

  /**
   * The array methods Jest may call on a received array while it compares with `expected` (a list of expected values):
   * those of every asymmetric matcher test code put in them, samples included. Walks only test data (plain objects,
   * arrays, Maps and Sets, matchers' samples), reading own data properties; past WALK_LIMIT objects, every method.
   */
  function arrayCallsFor(expected) {
    const found = [];
    const add = (names) => {
      for (let i = 0; i < names.length; i++) if (!found.includes(names[i])) P.ArrayPush(found, names[i]);
    };
    const seen = new WeakSet();
    const stack = [...expected];
    let budget = WALK_LIMIT;
    while (stack.length > 0 && found.length < ANY_CALLS.length) {
      const v = stack.pop();
      if (v === null || typeof v !== 'object' || seen.has(v) || types.isProxy(v)) continue;
      if (budget-- <= 0) return ANY_CALLS;
      seen.add(v);
      if (isBranded(v)) {
        const kind = matcherKind(v);
        if (kind === null) continue;
        add(CALLS_OF_MATCHER.has(kind) ? CALLS_OF_MATCHER.get(kind) : ANY_CALLS);
      }
      if (types.isMap(v)) MapForEach(v, (x, k) => P.ArrayPush(stack, k, x));
      else if (types.isSet(v)) SetForEach(v, (x) => P.ArrayPush(stack, x));
      const keys = ownKeys(v);
      for (let i = 0; i < keys.length; i++) {
        const d = P.ObjectGetOwnPropertyDescriptor(v, keys[i]);
        if (d && 'value' in d) P.ArrayPush(stack, d.value);
      }
    }
    return found;
  }

  /**
   * What toContainEqual's `[...received]` yields, iterated once by the harness (in the test's own time) into an array of
   * the platform's: its items are then walked and compared as data. A value without an iterator is left to Jest (which
   * throws "is not iterable"), as is a string.
   */
  function iterateOnce(v) {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return v;
    const next = P.ReflectGet(v, ITERATOR, v);
    if (typeof next !== 'function') return v;
    const it = P.ReflectApply(next, v, []);
    const step = it.next; // read once, as the language's own iteration does
    const out = [];
    for (;;) {
      const r = P.ReflectApply(step, it, []);
      if (r === null || typeof r !== 'object') throw new TypeError('Iterator result ' + P.String(r) + ' is not an object');
      if (r.done) return out;
      P.ArrayPush(out, r.value);
    }
  }

  /**
   * The expected class of an `instanceof` question as `instanceof` will read it, and whether it decides the answer itself. A class with
   * no Proxy on its chain is judged as it is: a `Symbol.hasInstance` of its own decides. One behind a Proxy (itself, or
   * a base class) has the Proxy's traps asked once for what `instanceof` reads — its `Symbol.hasInstance` and
   * `prototype` — and, when the first is the platform's, is replaced by a stand-in class holding that prototype (and
   * the name, for Jest's message): `instanceof` then walks the value's chain exactly as with the original.
   */
  function classAsData(C) {
    if (typeof C !== 'function') return { value: C, custom: false };
    const d = descriptorOnChain(C, Symbol.hasInstance);
    if (!types.isProxy(C) && !(d && d.proxy)) return { value: C, custom: !!d && !d.intrinsic && d.value !== FN_HAS_INSTANCE };
    if (P.ReflectGet(C, Symbol.hasInstance, C) !== FN_HAS_INSTANCE) return { value: C, custom: true };
    const prototype = P.ReflectGet(C, 'prototype', C);
    let name = '';
    try {
      const n = P.ReflectGet(C, 'name', C);
      if (typeof n === 'string') name = n;
    } catch {
      // Jest reads the name only for its message
    }
    const standIn = function () {};
    P.ObjectDefineProperty(standIn, 'prototype', { value: prototype, writable: false });
    P.ObjectDefineProperty(standIn, 'name', { value: name });
    return { value: standIn, custom: false };
  }

  return { arrayCallsFor, iterateOnce, classAsData };
}

module.exports = { createJestReads };
