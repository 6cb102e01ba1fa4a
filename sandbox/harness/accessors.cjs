'use strict';
// An accessor on a value the submission hands a matcher produces a value; it does not decide equality (issue 30).
// Exercism's own list-ops reference exposes `value` and `next` through getters, with a cycle through `next`, and
// Jest compares it. So before a deep matcher compares, each own accessor in the value is read once — by the
// harness, during the test, so under the test's own time — and the value is compared as data: a copy of the graph
// (same prototypes, arrays stay arrays, Maps and Sets rebuilt, cycles kept as cycles, so Jest compares them as it
// would the original) in which every accessor is the value its getter gave. A getter that would answer one read
// one way and the next another way is read once, and only that answer is compared. A Proxy is read the same way:
// its traps produce values (an observable store, a read counter, a default-value dict are ordinary code), so its
// keys, prototype and each property's value are asked of its traps once, as Jest would read them, and the copy is
// compared. What still decides equality on the copy (an asymmetricMatch, a computed Set…) is judged by guard.cjs.
const P = require('./primordials.cjs');
const { types } = require('node:util');
const { slotCopy, uncopiedSlots, putOwn } = require('./slots.cjs');

const getProto = Object.getPrototypeOf;
const setProto = Object.setPrototypeOf;
const ownKeys = Reflect.ownKeys;
const uncurry = (fn) => Function.prototype.call.bind(fn);
const MapForEach = uncurry(Map.prototype.forEach);
const SetForEach = uncurry(Set.prototype.forEach);
const MapSet = uncurry(Map.prototype.set);
const SetAdd = uncurry(Set.prototype.add);
const IntrinsicMap = Map;
const IntrinsicSet = Set;
const WeakMapGet = uncurry(WeakMap.prototype.get);
const WeakMapSet = uncurry(WeakMap.prototype.set);
const functionProxy = (v) => typeof v === 'function' && types.isProxy(v);

/**
 * An empty container of `v`'s kind with `v`'s prototype: an array, or a Map or Set holding `v`'s entries as they are
 * (their internal slots are what Jest's equality and a subclass's own methods read), a Date, RegExp or typed array
 * holding what `v`'s slots hold (slots.cjs), else a plain object.
 */
function shellOf(v) {
  const slotted = slotCopy(v);
  if (slotted) {
    setProto(slotted, getProto(v));
    return slotted;
  }
  const map = types.isMap(v);
  const c = P.ArrayIsArray(v) ? [] : map ? new IntrinsicMap() : types.isSet(v) ? new IntrinsicSet() : {};
  if (map) MapForEach(v, (val, k) => MapSet(c, k, val));
  else if (types.isSet(v)) SetForEach(v, (val) => SetAdd(c, val));
  setProto(c, getProto(v));
  return c;
}

/**
 * @param {(v: object) => boolean} opaque  values never copied nor read (test-made matchers and mocks, the
 *   platform's constructors and prototypes)
 * @param {(v: object, k: PropertyKey) => boolean} isErrorStack  V8's own `stack` accessor on errors
 */
function createMaterializer(opaque, isErrorStack) {
  // A function Proxy is compared by identity (Jest's equality never reads a function's properties), but Jest asks its
  // traps whether it is an asymmetric matcher and what its tag is. It is compared as one stand-in function, the same
  // one wherever and whenever it appears (identity kept across the received and the expected value), whose prototype is
  // the one its trap answered once.
  const standIns = new WeakMap();
  const standInFor = (v) => {
    let s = WeakMapGet(standIns, v);
    if (s === undefined) {
      s = (0, () => undefined);
      setProto(s, getProto(v));
      WeakMapSet(standIns, v, s);
    }
    return s;
  };
  // A getter that threw when read here: Jest would see that error if it read the property, and nothing if it did not
  // (toMatchObject and toHaveProperty read only what they name). The copy holds an accessor of ours rethrowing it.
  const rethrowers = new WeakSet();
  const rethrowing = (error) => {
    const g = function () {
      throw error;
    };
    rethrowers.add(g);
    return g;
  };
  const isRethrower = (f) => typeof f === 'function' && rethrowers.has(f);
  // Each copy's original: a getter the matcher reads later along the expected value (guard.cjs readAlong) runs with the
  // original as `this`, as under Jest (a class's getter over private fields cannot read them from a copy).
  const origins = new WeakMap();
  const originOf = (c) => WeakMapGet(origins, c) || c;
  const noteCopy = (c, v) => WeakMapSet(origins, c, originOf(v));
  // A Date, RegExp or typed array is copied with its slots (slots.cjs), as shellOf makes it: an own getter on one is read
  // once like any other (Jest compares a Date by its time alone; refusing the getter failed honest code).
  const copyable = (v) => v !== null && typeof v === 'object' && !opaque(v) && !uncopiedSlots(v);

  /**
   * Whether any copyable object reachable through own data (Map and Set entries too) has an own accessor. Runs no code.
   * No size limit: the walk (and the copy) run in the test's own time, like Jest's comparison after them (issue 30,
   * fourth round: 250,000 objects were refused as "too large to compare").
   */
  function hasAccessor(root) {
    const seen = new WeakSet();
    const stack = [root];
    while (stack.length) {
      const v = stack.pop();
      if (functionProxy(v)) return true;
      if (!copyable(v) || seen.has(v)) continue;
      if (types.isProxy(v)) return true;
      seen.add(v);
      if (types.isMap(v)) MapForEach(v, (val, k) => P.ArrayPush(stack, k, val));
      else if (types.isSet(v)) SetForEach(v, (val) => P.ArrayPush(stack, val));
      const keys = ownKeys(v);
      for (let i = 0; i < keys.length; i++) {
        const d = P.ObjectGetOwnPropertyDescriptor(v, keys[i]);
        if (!('value' in d)) {
          if (!isErrorStack(v, keys[i])) return true;
        } else P.ArrayPush(stack, d.value);
      }
    }
    return false;
  }

  /** `value` as data: unchanged when it holds no accessor, else a copy with each accessor read once. */
  function materialize(value) {
    if (functionProxy(value)) return standInFor(value);
    if (!copyable(value) || !hasAccessor(value)) return value;
    const copies = new Map();
    const copy = (v) => {
      if (functionProxy(v)) return standInFor(v);
      if (!copyable(v)) return v;
      if (copies.has(v)) return copies.get(v);
      if (types.isMap(v) || types.isSet(v)) return copyCollection(v);
      const c = slotCopy(v) || (P.ArrayIsArray(v) ? [] : {});
      setProto(c, getProto(v));
      copies.set(v, c);
      noteCopy(c, v);
      copyOwn(v, c);
      return c;
    };
    const copyOwn = (v, c) => {
      const keys = ownKeys(v);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        if (k === 'length' && P.ArrayIsArray(v)) continue;
        const d = P.ObjectGetOwnPropertyDescriptor(v, k);
        if (d === undefined) continue; // a Proxy's ownKeys named a key its descriptor trap does not have
        const read = readOwn(v, k, d);
        putOwn(c, k, read.threw ? { get: rethrowing(read.error), enumerable: d.enumerable } : { value: copy(read.value), writable: true, enumerable: d.enumerable });
      }
      if (P.ArrayIsArray(v)) c.length = v.length;
    };
    const copyCollection = (v) => {
      const map = types.isMap(v);
      const c = map ? new IntrinsicMap() : new IntrinsicSet();
      setProto(c, getProto(v));
      copies.set(v, c);
      noteCopy(c, v);
      if (map) MapForEach(v, (val, k) => MapSet(c, copy(k), copy(val)));
      else SetForEach(v, (val) => SetAdd(c, copy(val)));
      copyOwn(v, c);
      return c;
    };
    return copy(value);
  }

  /** Own property `k` (descriptor `d`) of `v` as Jest would read it, read once, in the test's own time. */
  function readOwn(v, k, d) {
    try {
      if (types.isProxy(v)) return { value: P.ReflectGet(v, k, v) }; // the get trap's answer
      if ('value' in d) return { value: d.value };
      if (isErrorStack(v, k)) return { value: stackText(v) };
      return { value: d.get ? P.ReflectApply(d.get, v, []) : undefined };
    } catch (error) {
      return { threw: true, error };
    }
  }

  return { materialize, hasAccessor, originOf, noteCopy, isRethrower };
}

function stackText(e) {
  try {
    return P.String(e.stack);
  } catch {
    return '';
  }
}

module.exports = { createMaterializer, shellOf };
