'use strict';
// Equality decided by the values compared, not by the submission. Jest's
// `equals` lets a received value vote on its own equality: an `asymmetricMatch`
// method (own or inherited) is handed the expected value and its answer is the
// verdict; a Proxy's traps answer every key and type question; an own accessor
// runs code on every read; a fake `constructor` or iterator steers
// `iterableEquality`; an object that claims `_isMockFunction` supplies its own
// call list. Before a built-in matcher runs, the received value (and, for mock
// matchers, the recorded calls or results) is walked without running any of its
// code; if the submission could decide the outcome, the assertion fails with a
// clear message and the job reports `tampering.self_equality`.
// Asymmetric matchers and mocks count only when test code made them: the
// harness brands what `expect.any(...)`, `jest.fn()`... return.
const P = require('./primordials.cjs');
const { types } = require('node:util');
const { createMaterializer, shellOf } = require('./accessors.cjs');
const { uncopiedSlots, putOwn } = require('./slots.cjs');
const { setCounts } = require('./asymmetric-gate.cjs');
const { MATCHER_KINDS } = require('./matcher-kinds.cjs');
const { createJestReads } = require('./jest-reads.cjs');

const isProxy = types.isProxy;
const isSet = types.isSet;
const isMap = types.isMap;
const getProto = Object.getPrototypeOf;
const ownKeys = Reflect.ownKeys;
const uncurry = (fn) => Function.prototype.call.bind(fn);
const CUSTOM_INSTANCEOF = 'the expected class decides `instanceof` itself (its own Symbol.hasInstance)';
const MapForEach = uncurry(Map.prototype.forEach);
const SetForEach = uncurry(Set.prototype.forEach);
const WeakSetHas = uncurry(WeakSet.prototype.has);
const WeakSetAdd = uncurry(WeakSet.prototype.add);
const WeakMapGet = uncurry(WeakMap.prototype.get);
const WeakMapSet = uncurry(WeakMap.prototype.set);
const WeakMapHas = uncurry(WeakMap.prototype.has);

// Names, not values: this module loads before lockdown(), which replaces Error, Date and RegExp on the global object
// (createGuard, called after it, takes the constructors the tests and the submission actually see).
const INTRINSIC_CTOR_NAMES = ['Object', 'Array', 'Map', 'Set', 'Date', 'RegExp', 'Error', 'Promise', 'WeakMap', 'WeakSet', 'ArrayBuffer', 'DataView',
  'Uint8Array', 'Int8Array', 'Uint16Array', 'Int16Array', 'Uint32Array', 'Int32Array', 'Float32Array', 'Float64Array', 'Uint8ClampedArray', 'BigInt64Array', 'BigUint64Array'];
// Longer prototype chains than any real class hierarchy are not walked: such a value counts as one that decides itself.
const CHAIN_LIMIT = 64;
const SET_MAP_METHODS = ['has', 'get', 'size', 'entries', 'values', 'keys', 'forEach', Symbol.iterator];
const IMMUTABLE = /^@@__IMMUTABLE_\w+__@@$/;
// Read once, as data, before Jest reads them: a thrown value's message and name (toThrow), a received value's length.
const THROWN_SHAPE = Object.freeze({ message: true, name: true });
const LENGTH_SHAPE = Object.freeze({ length: true });
// What Object.prototype.toString may answer for the platform's own kinds: Jest takes a value's type from it (`isA`), so
// a submission's object claiming one of these tags gets that kind's treatment (a "String" has its `includes` called).
const INTRINSIC_TAGS = new Set(['String', 'Number', 'Boolean', 'Symbol', 'BigInt', 'Array', 'Set', 'Map', 'WeakSet', 'WeakMap', 'Date',
  'RegExp', 'Error', 'Promise', 'Function', 'Object', 'Arguments', 'ArrayBuffer', 'DataView', 'Null', 'Undefined', ...INTRINSIC_CTOR_NAMES]);
// The methods Jest calls on a received array depend on the matcher and the expected value (jest-reads.cjs): an
// ArrayContaining calls `some`, an ArrayOf `every`, toHaveBeenCalledWith and toHaveReturnedWith the recorded list's
// `some`, toHaveReturned(Times) its `reduce`; equality itself none (an Array subclass iterating in its own way is honest).
// What Jest calls on a recorded list of a mock, per matcher (the list itself: `calls` or `results`).
const LIST_CALLS = Object.freeze({ toHaveBeenCalledWith: ['some'], toHaveReturnedWith: ['some'], toHaveReturned: ['reduce'], toHaveReturnedTimes: ['reduce'] });
const NO_CALLS = Object.freeze([]);
// A String object: stringContaining calls `includes`, stringMatching converts it (toString, valueOf, toPrimitive).
const JEST_CALLS_STRING = ['includes', 'indexOf', 'toString', 'valueOf', Symbol.toPrimitive, Symbol.iterator];

// lockdown's override taming turns data properties of intrinsic prototypes into
// accessors; those accessors are the platform's, frozen, never the submission's.
const INTRINSIC_PROTOS = new Set();
for (const C of [Object, Function, Array, Map, Set, WeakMap, WeakSet, Date, RegExp, Promise, String, Number, Boolean, Symbol, BigInt,
  Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError, AggregateError, ArrayBuffer, DataView]) INTRINSIC_PROTOS.add(C.prototype);
INTRINSIC_PROTOS.add(getProto(Uint8Array.prototype));

/**
 * The descriptor of `key` where the prototype chain first has it; runs no code of `obj`. `{ proxy: true }` when the
 * chain holds a Proxy or is longer than CHAIN_LIMIT before `key` is found; `{ intrinsic: true }` for the platform's
 * own accessor (override taming's) on an intrinsic prototype.
 */
function descriptorOnChain(obj, key) {
  for (let o = obj, depth = 0; o !== null; o = getProto(o), depth++) {
    if (depth >= CHAIN_LIMIT || isProxy(o)) return { proxy: true };
    const d = P.ObjectGetOwnPropertyDescriptor(o, key);
    if (d) {
      if ((d.get || d.set) && INTRINSIC_PROTOS.has(o)) return { intrinsic: true };
      return d;
    }
  }
  return undefined;
}

function inheritsFrom(obj, proto) {
  for (let o = getProto(obj), depth = 0; o !== null && depth < CHAIN_LIMIT; o = getProto(o), depth++) {
    if (isProxy(o)) return false;
    if (o === proto) return true;
  }
  return false;
}

/** Whether obj's prototype chain is longer than CHAIN_LIMIT (stopping at a Proxy, which is reported on its own). */
function chainTooLong(obj) {
  let depth = 0;
  for (let o = obj; o !== null && !isProxy(o); o = getProto(o)) if (++depth > CHAIN_LIMIT) return true;
  return false;
}

function createGuard(tamper) {
  const INTRINSIC_CTORS = new Set();
  for (const name of INTRINSIC_CTOR_NAMES) {
    INTRINSIC_CTORS.add(globalThis[name]);
    INTRINSIC_CTORS.add(globalThis[name].prototype.constructor); // what a Compartment's global names (ses's shared one)
  }
  const branded = new WeakSet();
  // Jest's equality counts as asymmetric matchers only the values test code made (asymmetric-gate.cjs).
  setCounts((v) => WeakSetHas(branded, v));
  const brand = (v) => {
    if (v !== null && (typeof v === 'object' || typeof v === 'function')) WeakSetAdd(branded, v);
    return v;
  };
  const reads = createJestReads((v) => WeakSetHas(branded, v), descriptorOnChain);
  const { materialize, originOf, noteCopy, isRethrower } = createMaterializer((v) => WeakSetHas(branded, v) || INTRINSIC_CTORS.has(v) || INTRINSIC_PROTOS.has(v), isErrorStack);

  /** Whether `o` is `fn`'s own `prototype` data property (as `function` and `class` make it). Runs no code. */
  const isPrototypeOf = (o, fn) => {
    const d = P.ObjectGetOwnPropertyDescriptor(fn, 'prototype');
    return d !== undefined && 'value' in d && d.value === o;
  };

  /**
   * Why `value` could decide its own comparison, or null. Runs no code of the value. `arrayCalls`: the methods Jest may
   * call on an array in it during this comparison (jest-reads.cjs `arrayCallsFor` of the expected value). A walk with a
   * stack of its own, every object once: no depth or size makes a value refused (issue 30, fourth round: a linked list
   * of 1,200 nodes was refused as "too deep to check"); its time is the test's own, like Jest's comparison after it.
   */
  function selfDecided(value, label, arrayCalls) {
    const seen = new WeakSet();
    const stack = [value, label];
    while (stack.length > 0) {
      const where = P.ArrayPop(stack);
      const v = P.ArrayPop(stack);
      if (v === null || (typeof v !== 'object' && typeof v !== 'function')) continue;
      if (WeakSetHas(seen, v) || WeakSetHas(branded, v)) continue;
      WeakSetAdd(seen, v);
      if (isProxy(v)) return where + ' is a Proxy';
      // The platform's own constructors and prototypes (a submission returning [Array, Map]) are not its doing.
      if (INTRINSIC_CTORS.has(v) || INTRINSIC_PROTOS.has(v)) continue;
      const why = nodeDecides(v, where, arrayCalls);
      if (why) return where + why;
      const next = childrenOf(v, where, seen);
      for (let i = next.length - 2; i >= 0; i -= 2) P.ArrayPush(stack, next[i], next[i + 1]);
    }
    return null;
  }

  /** Why the object `v` itself (not what it holds) could decide a comparison, or null. Runs no code of `v`. */
  function nodeDecides(v, where, arrayCalls) {
    if (chainTooLong(v)) return ' has a prototype chain longer than ' + CHAIN_LIMIT + ' objects';
    const am = descriptorOnChain(v, 'asymmetricMatch');
    if (am && !am.intrinsic) return ' carries an asymmetricMatch method that test code did not make';
    const keys = ownKeys(v);
    const setOrMap = isSet(v) || isMap(v);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const d = P.ObjectGetOwnPropertyDescriptor(v, k);
      const label = typeof k === 'symbol' ? '[' + P.String(k.description) + ']' : k;
      if (d.get || d.set) {
        if (typeof v === 'function' || isErrorStack(v, k) || isRethrower(d.get)) continue;
        return ' has an accessor property "' + label + '"';
      }
      // A function's or class's own `prototype` object names it as its constructor: the language's shape, not a claim.
      if (k === 'constructor' && typeof v !== 'function' && typeof d.value === 'function' && !isPrototypeOf(v, d.value)) return ' has its own "constructor" method';
      if (typeof k === 'string' && IMMUTABLE.test(k)) return ' carries an Immutable.js marker';
    }
    const claim = claimsKind(v, arrayCalls);
    if (claim) return claim;
    if (!setOrMap && typeof v === 'object') {
      if (inheritsFrom(v, Set.prototype)) return ' pretends to be a Set';
      if (inheritsFrom(v, Map.prototype)) return ' pretends to be a Map';
    }
    // A Set or Map still claiming its base constructor (Jest then trusts its own methods) must use the intrinsic ones.
    const ctorD = setOrMap ? descriptorOnChain(v, 'constructor') : null;
    if (ctorD && (ctorD.intrinsic || ctorD.value === Set || ctorD.value === Map)) {
      const proto = isSet(v) ? Set.prototype : Map.prototype;
      for (let i = 0; i < SET_MAP_METHODS.length; i++) {
        const d = descriptorOnChain(v, SET_MAP_METHODS[i]);
        const intr = P.ObjectGetOwnPropertyDescriptor(proto, SET_MAP_METHODS[i]);
        if (d && !d.intrinsic && intr && (d.value !== intr.value || d.get !== intr.get)) return ' replaces ' + P.String(SET_MAP_METHODS[i]) + ' of its ' + (isSet(v) ? 'Set' : 'Map');
      }
    }
    return null;
  }

  /**
   * What the walk visits after `v`, in order, as [value, where] pairs flattened: a Map's keys and values, a Set's
   * elements, own data values, then the data values the submission's own prototypes hold (Jest also reads inherited
   * properties: toMatchObject, toHaveProperty, objectContaining; their accessors are a class's getters, ordinary code).
   */
  function childrenOf(v, where, seen) {
    const out = [];
    if (isMap(v)) MapForEach(v, (val, key) => P.ArrayPush(out, key, where + ' (a key)', val, where + ' (a value)'));
    else if (isSet(v)) SetForEach(v, (val) => P.ArrayPush(out, val, where + ' (an element)'));
    const keys = ownKeys(v);
    for (let i = 0; i < keys.length; i++) {
      const d = P.ObjectGetOwnPropertyDescriptor(v, keys[i]);
      if ('value' in d) P.ArrayPush(out, d.value, where + (typeof keys[i] === 'symbol' ? '[symbol]' : '.' + keys[i]));
    }
    for (let o = getProto(v), n = 0; o !== null && !INTRINSIC_PROTOS.has(o) && !isProxy(o) && n < CHAIN_LIMIT; o = getProto(o), n++) {
      if (WeakSetHas(seen, o)) break;
      WeakSetAdd(seen, o);
      const protoKeys = ownKeys(o);
      for (let i = 0; i < protoKeys.length; i++) {
        const d = P.ObjectGetOwnPropertyDescriptor(o, protoKeys[i]);
        if (protoKeys[i] === 'constructor' || !('value' in d)) continue;
        P.ArrayPush(out, d.value, where + ' (inherited ' + (typeof protoKeys[i] === 'symbol' ? '[symbol]' : protoKeys[i]) + ')');
      }
    }
    return out;
  }

  /**
   * toMatchObject, toHaveProperty and objectContaining also read what the received value inherits, a class's getters
   * included, and a getter runs the submission's code on every read: it could answer the walk one thing and Jest
   * another. Each property the expected value names there is read here once, into a copy of the received value (same
   * prototype) where it is own data; Jest compares the copy, whose values are walked like any others. `inherited`:
   * whether Jest reads inherited properties at this level (toMatchObject, or under objectContaining); elsewhere only
   * own data is followed, to the levels below. Values with internal slots (Map, Set, Date…) are left as they are.
   */
  function readAlong(r, shape, inherited, depth) {
    const outer = alongMemo === null;
    if (outer) alongMemo = [new WeakMap(), new WeakMap()];
    try {
      return along(r, shape, inherited, depth);
    } finally {
      if (outer) alongMemo = null;
    }
  }
  // Per top-level readAlong: expected node → (received node → what was read along it), one map per `inherited`. Each
  // pair is read once, so a graph the two sides share or a cycle on both (a doubly linked list compared with another)
  // costs one pass, as Jest's own stacks make it, not one per path (2^depth); a pair met again while it is being read
  // (a cycle) is the received node as it is.
  let alongMemo = null;
  function along(r, shape, inherited, depth) {
    if (depth > 50 || shape === null || typeof shape !== 'object' || isProxy(shape)) return r;
    if (WeakSetHas(branded, shape)) return objectContaining(shape) ? along(r, shape.sample, true, depth) : r;
    if (!ordinary(r)) return inherited ? slotted(r, shape) : r;
    const memo = alongMemo[inherited ? 1 : 0];
    let byReceived = WeakMapGet(memo, shape);
    if (byReceived === undefined) WeakMapSet(memo, shape, (byReceived = new WeakMap()));
    if (WeakMapHas(byReceived, r)) return WeakMapGet(byReceived, r);
    WeakMapSet(byReceived, r, r);
    const result = readNamed(r, shape, inherited, depth);
    WeakMapSet(byReceived, r, result);
    return result;
  }
  function readNamed(r, shape, inherited, depth) {
    let copy = null;
    const keys = ownKeys(shape);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const ds = P.ObjectGetOwnPropertyDescriptor(shape, k);
      if (!ds || !('value' in ds) || !ds.enumerable) continue;
      const read = readOnce(r, k, inherited);
      if (!read) continue;
      const inner = along(read.value, ds.value, inherited, depth + 1);
      if (read.own && inner === read.value) continue;
      copy = copy || cloneOwn(r);
      setData(copy, k, inner);
    }
    return copy || r;
  }

  /**
   * `r[k]` as Jest would read it, read here once: own data, an own accessor's answer, or (when `inherited`) an
   * inherited data value or what the submission's getter returns — a getter always with the submission's own object
   * as `this`, never a copy. Null when there is nothing to read: absent, or the platform's own.
   */
  function readOnce(r, k, inherited) {
    const own = P.ObjectGetOwnPropertyDescriptor(r, k);
    if (own && 'value' in own) return { own: true, value: own.value };
    if (own) return isErrorStack(r, k) ? null : { own: false, value: own.get ? P.ReflectApply(own.get, originOf(r), []) : undefined };
    const d = inherited ? descriptorOnChain(r, k) : undefined;
    if (!d || d.intrinsic || d.proxy) return null;
    // A getter runs with the submission's own object as `this`, never a copy of it (a class's private fields).
    return { own: false, value: 'value' in d ? d.value : d.get ? P.ReflectApply(d.get, originOf(r), []) : undefined };
  }
  const setData = (o, k, value) => P.ObjectDefineProperty(o, k, { value, writable: true, enumerable: true, configurable: true });

  /** toHaveProperty's path read as Jest reads it (inherited properties too), once; the value there follows own data. */
  function readPath(r, path, value) {
    const parts = P.ArrayIsArray(path) ? path : typeof path === 'string' ? P.StringSplit(path, /\.|\[|\]/).filter((p) => p !== '') : null;
    if (!parts || parts.length === 0 || parts.length > 50) return r;
    const along = (node, i) => {
      if (i === parts.length) return value === undefined ? node : readAlong(node, value, false, i);
      if (!ordinary(node)) return slotted(node, { [parts[i]]: true });
      const read = readOnce(node, parts[i], true);
      if (!read) return node;
      const inner = along(read.value, i + 1);
      if (read.own && inner === read.value) return node;
      const copy = cloneOwn(node);
      setData(copy, parts[i], inner);
      return copy;
    };
    return along(r, 0);
  }

  // Errors are copied like plain objects (Jest compares their named properties, not their internal slot), Maps and Sets
  // with their entries, Dates, RegExps and typed arrays with what their slots hold (shellOf); values with other internal
  // slots (slots.cjs uncopiedSlots) are not: see slotted().
  const ordinary = (r) => r !== null && typeof r === 'object' && !isProxy(r) && !uncopiedSlots(r);

  /**
   * A Promise, boxed primitive, ArrayBuffer or DataView that Jest reads a named property of (objectContaining): it is not
   * copied (shellOf), so a getter of the submission's there is refused, not read.
   */
  let refused = null; // set by slotted(), read by the matcher that asked (readChecked)
  /** What `read` (readAlong/readPath) returns, and why slotted() refused a getter on the way (or null). */
  function readChecked(read) {
    refused = null;
    const value = read();
    const why = refused;
    refused = null;
    return { value, why };
  }
  function slotted(r, shape) {
    if (r === null || typeof r !== 'object' || isProxy(r)) return r;
    const keys = ownKeys(shape);
    for (let i = 0; i < keys.length; i++) {
      const d = descriptorOnChain(r, keys[i]);
      if (d && !d.intrinsic && (d.proxy || d.get || d.set) && refused === null) {
        refused = (typeof keys[i] === 'symbol' ? 'a symbol' : '"' + keys[i] + '"') + ' is read through a getter of its own class';
      }
    }
    return r;
  }
  const objectContaining = (m) => {
    const c = descriptorOnChain(m, 'constructor');
    return !!c && 'value' in c && typeof c.value === 'function' && (c.value.name === 'ObjectContaining' || c.value.name === 'ObjectNotContaining');
  };

  /**
   * A copy with the same prototype and own properties (an array stays an array, a Map or Set keeps its entries; an
   * error's stack is copied as text), each configurable, so a value read later along it can take its place.
   */
  function cloneOwn(r) {
    const c = shellOf(r);
    noteCopy(c, r);
    const array = P.ArrayIsArray(r);
    const keys = ownKeys(r);
    for (let i = 0; i < keys.length; i++) {
      if (array && keys[i] === 'length') continue;
      const d = P.ObjectGetOwnPropertyDescriptor(r, keys[i]);
      if (keys[i] === 'stack' && isErrorStack(r, 'stack') && !('value' in d)) {
        let text = '';
        try {
          text = P.String(r.stack);
        } catch {
          // no stack then
        }
        P.ObjectDefineProperty(c, 'stack', { value: text, writable: true, enumerable: false, configurable: true });
      } else putOwn(c, keys[i], d);
    }
    if (array) c.length = r.length;
    return c;
  }

  /**
   * Whether `v` (or a prototype of the submission's on its chain) claims a kind of the platform's it is not: a
   * `Symbol.toStringTag` naming one (Jest's `isA` believes it), a `constructor` that is an intrinsic constructor
   * (Jest's `iterableEquality` compares constructors, then trusts `size`, `has` and the iterator), or, on a genuine
   * array or String object, an own or inherited method of the submission's where Jest calls one (`arrayCalls`,
   * JEST_CALLS_STRING). Runs no code of `v`.
   */
  function claimsKind(v, arrayCalls) {
    const boxedString = types.isStringObject(v);
    const calls = boxedString ? JEST_CALLS_STRING : P.ArrayIsArray(v) ? arrayCalls : NO_CALLS;
    for (let o = v, n = 0; o !== null && !INTRINSIC_PROTOS.has(o) && !isProxy(o) && n < CHAIN_LIMIT; o = getProto(o), n++) {
      // A getter for the tag is the language's own idiom for a class's name: only a tag stored as data is judged here.
      const tag = P.ObjectGetOwnPropertyDescriptor(o, Symbol.toStringTag);
      if (tag && 'value' in tag && typeof tag.value === 'string' && INTRINSIC_TAGS.has(tag.value) && !isGenuine(v, tag.value)) {
        return ' claims to be a ' + P.String(tag.value) + ' (Symbol.toStringTag)';
      }
      const ctor = o !== v ? P.ObjectGetOwnPropertyDescriptor(o, 'constructor') : undefined;
      if (ctor && 'value' in ctor && INTRINSIC_CTORS.has(ctor.value) && !isGenuine(v, ctor.value.name)) {
        return ' claims to be made by ' + P.String(ctor.value.name) + ' (an inherited constructor)';
      }
      const k = ownMethod(o, calls);
      if (k !== null) return ' shadows the ' + (boxedString ? 'string' : 'array') + ' method ' + k;
    }
    return null;
  }

  /** The first of `names` that `o` has as an own method or accessor, printed, or null. Runs no code. */
  function ownMethod(o, names) {
    for (let i = 0; i < names.length; i++) {
      const d = P.ObjectGetOwnPropertyDescriptor(o, names[i]);
      if (d && (d.get || d.set || typeof d.value === 'function')) return typeof names[i] === 'symbol' ? '[' + P.String(names[i].description) + ']' : '"' + names[i] + '"';
    }
    return null;
  }

  /** Whether `v` or a prototype of the submission's on its chain has one of `names` of its own. Runs no code. */
  function shadows(v, names) {
    for (let o = v, n = 0; o !== null && !INTRINSIC_PROTOS.has(o) && !isProxy(o) && n < CHAIN_LIMIT; o = getProto(o), n++) {
      const k = ownMethod(o, names);
      if (k !== null) return k;
    }
    return null;
  }

  /** Whether `v` really is of the platform's kind `name` (by its internal slots, not by anything it says). */
  function isGenuine(v, name) {
    switch (name) {
      case 'Set': return isSet(v);
      case 'Map': return isMap(v);
      case 'Array': return P.ArrayIsArray(v);
      case 'Object': return true;
      case 'Error': return types.isNativeError(v);
      case 'Promise': return types.isPromise(v);
      case 'Date': return types.isDate(v);
      case 'RegExp': return types.isRegExp(v);
      default: return ArrayBuffer.isView(v) || types.isAnyArrayBuffer(v) ? getProto(v) !== null : false;
    }
  }

  // V8 installs `stack` on errors as an own accessor on some paths; it runs no student code.
  function isErrorStack(v, k) {
    return k === 'stack' && v instanceof Error;
  }

  /** Plain data: nothing in the expected value is the submission's or a custom class (then Jest's rules are the test's own business). */
  function isPlainExpected(v, depth, seen = new WeakSet()) {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return true;
    if (typeof v === 'function') return WeakSetHas(branded, v) || INTRINSIC_CTORS.has(v);
    // Met before on another path (a shared or cyclic graph): judged there, so each object is looked at once.
    if (WeakSetHas(branded, v) || WeakSetHas(seen, v)) return true;
    if (isProxy(v) || depth > 50) return false;
    WeakSetAdd(seen, v);
    const proto = getProto(v);
    const ok = proto === null || proto === Object.prototype || P.ArrayIsArray(v) || isSet(v) || isMap(v) || v instanceof Date || v instanceof RegExp || v instanceof Error || ArrayBuffer.isView(v);
    if (!ok) return false;
    const keys = ownKeys(v);
    for (let i = 0; i < keys.length && i < 10000; i++) {
      const d = P.ObjectGetOwnPropertyDescriptor(v, keys[i]);
      if (d && 'value' in d && !isPlainExpected(d.value, depth + 1, seen)) return false;
    }
    return true;
  }

  /** An expected class as `instanceof` reads it (jest-reads.cjs): one deciding `instanceof` itself fails the matcher. */
  function classAsData(name, C) {
    const c = reads.classAsData(C);
    if (c.custom) fail(name, CUSTOM_INSTANCEOF);
    return c.value;
  }

  function fail(matcher, reason) {
    tamper('tampering.self_equality', matcher + ': ' + reason);
    const e = new P.Error('evigrade: ' + matcher + ' cannot decide: ' + reason + '. The submission would decide the comparison itself, so this assertion fails.');
    throw e;
  }

  function isMock(v) {
    return typeof v === 'function' && WeakSetHas(branded, v);
  }

  // The first built-in assertion that failed during the running test. A failed assertion throws into whatever called
  // it: a test callback the submission runs (`.then(cb)`, `forEach(cb)`) can catch and drop it, and the test would
  // pass (expect.assertions counts failed calls too). A test in which one failed fails, caught or not.
  let failure = null;
  let recording = false;
  const beginTest = () => {
    failure = null;
    recording = true;
  };
  /** The failed assertion the running test never saw thrown to it, as an Error (or null); recording stops. */
  function endTest() {
    recording = false;
    const f = failure;
    failure = null;
    if (!f) return null;
    let text = f.error ? f.error : 'expect(received).' + f.name + '(…) failed';
    try {
      if (!f.error && typeof f.out.message === 'function') text = P.String(f.out.message());
    } catch {
      // the message could not be made; the name says which assertion it was
    }
    return new P.Error('An assertion failed, but its error was caught before it reached the test (by the code under test, or by the test itself):\n\n' + text);
  }
  function noteOutcome(name, out, ctx) {
    if (recording && failure === null && out !== null && typeof out === 'object' && typeof out.pass === 'boolean' && out.pass === !!(ctx && ctx.isNot)) failure = { name, out };
  }
  function run(name, orig, ctx, args) {
    let out;
    try {
      out = P.ReflectApply(orig, ctx, args);
    } catch (e) {
      if (recording && failure === null) failure = { name, error: 'expect(received).' + name + '(…) threw: ' + errorLine(e) };
      throw e;
    }
    noteOutcome(name, out, ctx);
    return out;
  }

  /**
   * `value` as the matcher will read it, and why it would still decide the comparison itself (or null): every own
   * accessor read once (materialize), then each property `shape` names read once along it (readAlong; `inherited`:
   * whether Jest reads inherited properties at the top level), then the result walked (selfDecided). The one
   * preparation every matcher family that compares a submission's value shares.
   */
  function asData(value, shape, inherited, label, arrayCalls) {
    const read = readChecked(() => readAlong(materialize(value), shape, inherited, 0));
    if (read.why) return { value: read.value, why: label + ': ' + read.why };
    return { value: read.value, why: selfDecided(read.value, label, arrayCalls) };
  }

  /** The expected values a matcher compares with, an expected value the submission's own class made read as data too. */
  function expectedAsData(name, expected, from, arrayCalls) {
    for (let i = from; i < expected.length; i++) {
      if (isPlainExpected(expected[i], 0)) continue;
      expected[i] = materialize(expected[i]);
      const why = selfDecided(expected[i], 'the expected value', arrayCalls);
      if (why) fail(name, why);
    }
  }

  function deepAsData(name, received, expected) {
    const arrayCalls = reads.arrayCallsFor(expected);
    expectedAsData(name, expected, 0, arrayCalls);
    let r0;
    let shape = expected[0];
    if (name === 'toContainEqual') {
      // Jest iterates what toContainEqual receives (`[...received]`): iterated here once, and its items compared as data,
      // each along the expected item.
      r0 = reads.iterateOnce(received);
      if (P.ArrayIsArray(r0) && r0 !== received) shape = repeat(shape, r0.length);
    } else r0 = received;
    r0 = materialize(r0);
    const read = readChecked(() =>
      name === 'toHaveProperty' ? readPath(r0, expected[0], expected.length > 1 ? expected[1] : undefined) : readAlong(r0, shape, name === 'toMatchObject', 0));
    if (read.why) fail(name, 'the received value: ' + read.why);
    const why = selfDecided(read.value, 'the received value', arrayCalls);
    if (why) fail(name, why);
    return read.value;
  }
  const repeat = (v, n) => {
    const out = [];
    for (let i = 0; i < n; i++) P.ArrayPush(out, v);
    return out;
  };

  /** A method of the submission's on the mock's recorded list where the matcher calls one (LIST_CALLS) fails it. */
  function listCalls(name, state) {
    const calls = LIST_CALLS[name];
    if (calls === undefined) return;
    const list = name === 'toHaveBeenCalledWith' ? state.calls : state.results;
    const k = shadows(list, calls);
    if (k !== null) fail(name, 'the recorded ' + (list === state.calls ? 'calls' : 'results') + ' list has its own method ' + k);
  }

  /** The count matchers read only that the value is a mock the test made, and its recorded list (LIST_CALLS). */
  function countChecked(name, received) {
    checkMockClaim(name, received);
    if (isMock(received)) listCalls(name, received.mock);
  }

  /** A mock the test made, or a value that does not claim to be one (Jest then reports it as not a mock). */
  function checkMockClaim(name, received) {
    if (isMock(received) || received === null || (typeof received !== 'function' && typeof received !== 'object')) return;
    const claim = descriptorOnChain(received, '_isMockFunction') || descriptorOnChain(received, 'mock') || descriptorOnChain(received, 'calls');
    if (claim && !claim.intrinsic) fail(name, 'the received value pretends to be a mock function that test code did not make');
  }

  /**
   * A mock's recorded arguments (`calls`) or return values (`returns`) as data, read as the deep matchers read their
   * received value, each call or result along the expected arguments; Jest then compares a stand-in mock holding
   * those copies (the test's mock itself is left as it is).
   */
  function mockAsData(name, kind, received, expected) {
    checkMockClaim(name, received);
    if (!isMock(received)) return received;
    const nth = name === 'toHaveBeenNthCalledWith' || name === 'toHaveNthReturnedWith' ? 1 : 0;
    const arrayCalls = reads.arrayCallsFor(expected);
    expectedAsData(name, expected, nth, arrayCalls);
    const state = received.mock;
    const results = state.results;
    listCalls(name, state);
    const list = kind === 'calls' ? state.calls : [];
    if (kind === 'returns') for (let i = 0; i < results.length; i++) P.ArrayPush(list, results[i].value);
    const shape = kind === 'calls' ? expected.slice(nth) : expected[nth];
    const read = asData(list, repeat(shape, list.length), false, kind === 'calls' ? 'the recorded calls' : 'the recorded results', arrayCalls);
    if (read.why) fail(name, read.why);
    if (read.value === list) return received;
    const calls = kind === 'calls' ? read.value : state.calls;
    const standIn = function () {};
    standIn._isMockFunction = true;
    standIn.getMockName = () => received.getMockName();
    standIn.mock = {
      calls,
      results: kind === 'calls' ? results : results.map((r, i) => ({ type: r.type, value: read.value[i] })),
      instances: state.instances,
      contexts: state.contexts,
      invocationCallOrder: state.invocationCallOrder,
      lastCall: calls[calls.length - 1],
    };
    return standIn;
  }

  /**
   * toHaveLength reads `length` (twice): a getter's answer is read once, into a copy where it is own data. Nothing else
   * of the value is Jest's business here, so nothing else is judged.
   */
  function lengthAsData(name, received) {
    return readChecked(() => readAlong(received, LENGTH_SHAPE, true, 0)).value;
  }

  /** toThrow: the thrown value read as data (thrownWhy), in the function Jest calls or the value `.rejects` hands over. */
  function throwsAsData(name, orig, ctx, received, expected) {
    expected[0] = classAsData(name, expected[0]);
    const thrownShape = expected[0] !== null && typeof expected[0] === 'object' ? expected[0] : null;
    if (ctx && ctx.promise === 'rejects') {
      const thrown = thrownWhy(received, thrownShape);
      if (thrown.reason) fail(name, thrown.reason);
      return run(name, orig, ctx, [thrown.value, ...expected]);
    }
    if (typeof received !== 'function') return run(name, orig, ctx, [received, ...expected]);
    let why = null;
    const inner = received;
    const call = function () {
      try {
        return P.ReflectApply(inner, this, arguments);
      } catch (e) {
        const seen = thrownWhy(e, thrownShape);
        why = seen.reason;
        throw seen.value;
      }
    };
    const out = run(name, orig, ctx, [call, ...expected]);
    if (why) fail(name, why);
    return out;
  }

  /** Wraps each built-in matcher in Jest's registry (before any test or student code runs), by its kind (matcher-kinds.cjs). */
  function wrapMatchers(registry, internalFlag) {
    const names = P.ObjectKeys(registry);
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      const orig = registry[name];
      if (typeof orig !== 'function') continue;
      const kind = MATCHER_KINDS[name];
      if (kind === undefined) throw new P.Error('evigrade: Jest matcher ' + name + ' has no kind in matcher-kinds.cjs');
      const wrapped = function (received, ...expected) {
        // A Proxy's traps would answer what these matchers ask (its `length`, its prototype, its items): asked once, into
        // a copy (accessors.cjs). The deep kinds do the same inside asData; a thrown Proxy is read in thrownWhy.
        if ((kind === 'shallow' || kind === 'length') && isProxy(received)) received = materialize(received);
        if (kind === 'deep') received = deepAsData(name, received, expected);
        else if (kind === 'calls' || kind === 'returns') received = mockAsData(name, kind, received, expected);
        else if (kind === 'count') countChecked(name, received);
        else if (kind === 'length') received = lengthAsData(name, received);
        else if (kind === 'throws') return throwsAsData(name, orig, this, received, expected);
        else if (kind === 'shallow' && name === 'toBeInstanceOf') expected[0] = classAsData(name, expected[0]);
        return run(name, orig, this, [received, ...expected]);
      };
      if (internalFlag && orig[internalFlag] !== undefined) P.ObjectDefineProperty(wrapped, internalFlag, { value: orig[internalFlag] });
      P.ObjectDefineProperty(wrapped, 'name', { value: orig.name });
      registry[name] = wrapped;
    }
  }

  /**
   * The thrown value toThrow or `.rejects` compares, as data: Jest reads its `message` and `name` (a getter's answer
   * read once here), and what an expected object names, as toMatchObject's received value is read; and why it would
   * decide that comparison itself, or null.
   */
  function thrownWhy(thrown, shape) {
    // A thrown Proxy is read like a received one: its traps asked once, into a copy (a stand-in for a function).
    const e = isProxy(thrown) ? materialize(thrown) : thrown;
    if (e === null || typeof e !== 'object' || isProxy(e)) return { value: e, reason: thrownDecides(e) };
    // Message and name first: V8 formats an error's stack (its own `stack`, on the first look at it) through its
    // message and name, which would make that read theirs.
    const named = readChecked(() => materialize(readAlong(e, THROWN_SHAPE, true, 0)));
    const along = shape && !named.why ? readChecked(() => readAlong(named.value, shape, false, 0)) : named;
    const why = named.why || along.why;
    const reason = (why ? 'the thrown value: ' + why : null) || thrownDecides(along.value) || (shape ? selfDecided(along.value, 'the thrown value', reads.arrayCallsFor([shape])) : null);
    return { value: along.value, reason };
  }

  function thrownDecides(e) {
    if (e === null || (typeof e !== 'object' && typeof e !== 'function')) return null;
    if (isProxy(e)) return 'the thrown value is a Proxy';
    const d = descriptorOnChain(e, 'message');
    if (d && !d.intrinsic && (d.proxy || d.get || d.set)) return 'the thrown value computes its message with an accessor';
    const am = descriptorOnChain(e, 'asymmetricMatch');
    if (am && !am.intrinsic && !WeakSetHas(branded, e)) return 'the thrown value carries an asymmetricMatch method';
    return null;
  }

  /**
   * node:assert as the hidden tests get it: each assertion that throws while a test runs is noted like a failed
   * matcher (a callback the submission runs could otherwise catch and drop it). A frozen function with the module's
   * properties; `strict` likewise.
   */
  function recordingAssert(mod) {
    const wrap = (fn, label) =>
      function (...a) {
        try {
          return P.ReflectApply(fn, this, a);
        } catch (e) {
          if (recording && failure === null && e instanceof mod.AssertionError) failure = { name: label, error: label + ' failed: ' + errorLine(e) };
          throw e;
        }
      };
    const make = (m, prefix) => {
      const out = wrap(m, prefix);
      const keys = P.ObjectKeys(m);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        const v = m[k];
        out[k] = k === 'strict' ? (v === m ? out : make(v, prefix + '.strict')) : typeof v === 'function' && k !== 'AssertionError' && k !== 'CallTracker' ? wrap(v, prefix + '.' + k) : v;
      }
      return P.ObjectFreeze(out);
    };
    return make(mod, 'assert');
  }

  return { brand, wrapMatchers, beginTest, endTest, recordingAssert, classAsData };
}

/** One line describing a thrown value, without running its code beyond reading a data `message`. */
function errorLine(e) {
  if (e === null || (typeof e !== 'object' && typeof e !== 'function')) return P.String(e);
  const d = descriptorOnChain(e, 'message');
  return d && 'value' in d && typeof d.value === 'string' ? d.value : 'a thrown value';
}

module.exports = { createGuard, descriptorOnChain };
