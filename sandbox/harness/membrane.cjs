'use strict';
// The membrane between the submission's Compartment and Node's host objects (issue 30). A host built-in the
// realm offers (fs, os, crypto, zlib, url, util, assert…) is never handed over, not even frozen: the submission
// gets a facade made here, whose functions call Node's with arguments turned into host-safe values and turn what
// Node gives back into in-realm values. So:
// - no host object ever crosses: a result, a thrown error, an argument or `this` of a call Node makes back is a
//   primitive, a copy (arrays, plain objects, buffers, dates, maps, errors — as in-realm errors with their message
//   and code), a facade of an instance of a class the module exports (its methods forward, nothing else), or
//   nothing (`undefined`: the real `process`, a module object, an internal object Node happens to pass);
// - Node never calls a function of the submission: a callback crosses as a harness function that calls it with
//   in-realm arguments and `this`; for I/O modules, objects cross as data copies (so Node never runs their
//   toString/valueOf/getters either); typed arrays are copied in and their bytes copied back after the call;
// - a facade class can be extended (`class X extends URL`): the subclass instance is linked to its host object.
// Everything made here is hardened before the submission sees it.
const P = require('./primordials.cjs');
const { overridable } = require('./overridable.cjs');
const { types } = require('node:util');

const ObjectCreate = Object.create;
const getProto = Object.getPrototypeOf;
const ReflectConstruct = Reflect.construct;
const ReflectOwnKeys = Reflect.ownKeys;
const WeakMapGet = Function.prototype.call.bind(WeakMap.prototype.get);
const WeakMapSet = Function.prototype.call.bind(WeakMap.prototype.set);
const WeakMapHas = Function.prototype.call.bind(WeakMap.prototype.has);
const WeakSetAdd = Function.prototype.call.bind(WeakSet.prototype.add);
const WeakSetHas = Function.prototype.call.bind(WeakSet.prototype.has);
const TypedArraySlice = Function.prototype.call.bind(Object.getPrototypeOf(Uint8Array.prototype).slice);
const TypedArraySet = Function.prototype.call.bind(Object.getPrototypeOf(Uint8Array.prototype).set);
const ArrayBufferSlice = Function.prototype.call.bind(ArrayBuffer.prototype.slice);
const DateGetTime = Function.prototype.call.bind(Date.prototype.getTime);
const MapForEach = Function.prototype.call.bind(Map.prototype.forEach);
const SetForEach = Function.prototype.call.bind(Set.prototype.forEach);
const HostBuffer = Buffer;
const WELL_KNOWN = new Set([Symbol.iterator, Symbol.asyncIterator, Symbol.toPrimitive, Symbol.toStringTag]);
const ERROR_CTORS = { TypeError, RangeError, SyntaxError, ReferenceError, URIError, EvalError };
const ERROR_FIELDS = ['code', 'errno', 'syscall', 'path', 'dest', 'address', 'port', 'hostname', 'operator', 'generatedMessage', 'actual', 'expected', 'name'];

const isObj = (v) => v !== null && (typeof v === 'object' || typeof v === 'function');

/**
 * @param {object} o
 * @param {() => Function} o.realmBuffer   the Compartment's Buffer class (a userland Buffer evaluated there)
 * @param {() => object} o.realmIntrinsics  the error constructors as the Compartment sees them
 */
function createMembrane(o) {
  const facadeOfHost = new WeakMap(); // host object → its facade
  const hostOfFacade = new WeakMap(); // facade (or subclass instance) → host object
  const studentOfWrapper = new WeakMap(); // callback wrapper → the submission's function
  const wrapperOfStudent = new WeakMap();
  const classes = new Map(); // host prototype → facade prototype
  const asIs = new WeakSet(); // the submission's values handed to Node for inspection (they come back as they are)

  /** Node's result, error or callback argument, as an in-realm value. */
  function toRealm(v, seen) {
    if (!isObj(v)) return v;
    if (WeakSetHas(asIs, v)) return v;
    if (WeakMapHas(studentOfWrapper, v)) return WeakMapGet(studentOfWrapper, v);
    if (WeakMapHas(facadeOfHost, v)) return WeakMapGet(facadeOfHost, v);
    if (typeof v === 'function') return classes.has(v.prototype) && WeakMapHas(facadeOfHost, v) ? WeakMapGet(facadeOfHost, v) : callable(v, undefined);
    seen = seen || new Map();
    if (seen.has(v)) return seen.get(v);
    if (types.isNativeError(v) || v instanceof Error) return realmError(v, seen);
    if (types.isPromise(v)) return new Promise((res, rej) => P.PromiseThen(v, (x) => res(toRealm(x)), (e) => rej(toRealm(e))));
    if (HostBuffer.isBuffer(v)) return o.realmBuffer().from(TypedArraySlice(v));
    if (types.isTypedArray(v)) return TypedArraySlice(v);
    if (types.isDataView(v)) return new DataView(ArrayBufferSlice(v.buffer, v.byteOffset, v.byteOffset + v.byteLength));
    if (types.isAnyArrayBuffer(v)) return ArrayBufferSlice(v, 0);
    if (types.isDate(v)) return new Date(DateGetTime(v));
    if (types.isRegExp(v)) return new RegExp(v.source, v.flags);
    if (types.isMap(v)) return fill(seen, v, new Map(), (out) => MapForEach(v, (val, k) => out.set(toRealm(k, seen), toRealm(val, seen))));
    if (types.isSet(v)) return fill(seen, v, new Set(), (out) => SetForEach(v, (val) => out.add(toRealm(val, seen))));
    if (P.ArrayIsArray(v)) return fill(seen, v, [], (out) => { for (let i = 0; i < v.length; i++) out[i] = toRealm(v[i], seen); });
    const proto = getProto(v);
    if (proto === Object.prototype || proto === null) return fill(seen, v, proto === null ? ObjectCreate(null) : {}, (out) => copyOwn(v, out, seen));
    for (let p = proto; p !== null; p = getProto(p)) if (classes.has(p)) return facadeOf(v, classes.get(p));
    return undefined; // an object of Node's the submission has no business holding (the real process, a module…)
  }
  function fill(seen, v, out, f) {
    seen.set(v, out);
    f(out);
    return out;
  }
  function copyOwn(v, out, seen) {
    const keys = ReflectOwnKeys(v);
    for (let i = 0; i < keys.length; i++) {
      const d = P.ObjectGetOwnPropertyDescriptor(v, keys[i]);
      if (!d.enumerable || (typeof keys[i] === 'symbol' && !WELL_KNOWN.has(keys[i]))) continue;
      out[keys[i]] = toRealm('value' in d ? d.value : v[keys[i]], seen);
    }
  }

  /** A host error as an error of the submission's realm: its class (when facaded), message, code and fields. */
  function realmError(e, seen) {
    const intr = o.realmIntrinsics();
    let name = 'Error';
    try {
      name = P.String(e.name);
    } catch {
      // keep Error
    }
    const Ctor = intr[ERROR_CTORS[name] ? name : 'Error'];
    let message = '';
    try {
      message = P.String(e.message);
    } catch {
      // no message
    }
    const out = new Ctor(message);
    if (seen) seen.set(e, out);
    for (let p = getProto(e); p !== null; p = getProto(p)) {
      if (classes.has(p)) {
        Object.setPrototypeOf(out, classes.get(p));
        break;
      }
    }
    for (let i = 0; i < ERROR_FIELDS.length; i++) {
      const d = P.ObjectGetOwnPropertyDescriptor(e, ERROR_FIELDS[i]);
      if (d && 'value' in d) P.ObjectDefineProperty(out, ERROR_FIELDS[i], { value: toRealm(d.value, seen), writable: true, enumerable: ERROR_FIELDS[i] !== 'name', configurable: true });
    }
    return out;
  }

  /** The facade of host object `h`, an instance of a facaded class. */
  function facadeOf(h, proto) {
    if (WeakMapHas(facadeOfHost, h)) return WeakMapGet(facadeOfHost, h);
    const f = ObjectCreate(proto);
    link(f, h);
    const keys = P.ObjectKeys(h);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k[0] === '_' || k in proto) continue;
      // Live, as on the host object (a stream's bytesRead); read through the host's own value, never its `this`.
      P.ObjectDefineProperty(f, k, { get: () => toRealm(h[k]), enumerable: true, configurable: false });
    }
    return harden(f);
  }
  function link(f, h) {
    WeakMapSet(hostOfFacade, f, h);
    if (!WeakMapHas(facadeOfHost, h)) WeakMapSet(facadeOfHost, h, f);
  }

  /**
   * The submission's value as Node may see it. `copy` (I/O modules): data copies only. Otherwise (modules that
   * inspect values: assert, util.types…) objects pass as they are, but a function still crosses as a wrapper.
   */
  function toHost(v, copy, after, seen) {
    if (!isObj(v)) return v;
    if (WeakMapHas(hostOfFacade, v)) return WeakMapGet(hostOfFacade, v);
    if (typeof v === 'function') return wrapperOf(v, after);
    if (!copy) {
      WeakSetAdd(asIs, v);
      return v;
    }
    seen = seen || new Map();
    if (seen.has(v)) return seen.get(v);
    if (types.isProxy(v)) return undefined;
    if (types.isTypedArray(v) || types.isDataView(v)) {
      const h = HostBuffer.alloc(v.byteLength);
      TypedArraySet(h, new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      if (after) P.ArrayPush(after, () => TypedArraySet(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), h));
      const out = types.isDataView(v) ? new DataView(h.buffer, h.byteOffset, h.byteLength) : o.realmBuffer().isBuffer(v) ? h : new v.constructor(h.buffer, h.byteOffset, v.length);
      seen.set(v, out);
      return out;
    }
    if (types.isAnyArrayBuffer(v)) return ArrayBufferSlice(v, 0);
    if (types.isDate(v)) return new Date(DateGetTime(v));
    if (types.isRegExp(v)) return new RegExp(v.source, v.flags);
    if (types.isMap(v)) return fill(seen, v, new Map(), (out) => MapForEach(v, (val, k) => out.set(toHost(k, true, after, seen), toHost(val, true, after, seen))));
    if (types.isSet(v)) return fill(seen, v, new Set(), (out) => SetForEach(v, (val) => out.add(toHost(val, true, after, seen))));
    if (P.ArrayIsArray(v)) return fill(seen, v, [], (out) => { for (let i = 0; i < v.length; i++) out[i] = toHost(v[i], true, after, seen); });
    return fill(seen, v, {}, (out) => {
      const keys = P.ObjectKeys(v);
      for (let i = 0; i < keys.length; i++) out[keys[i]] = toHost(v[keys[i]], true, after, seen);
    });
  }

  /** The harness function Node gets for the submission's function `fn`: Node never calls the submission directly. */
  function wrapperOf(fn, after) {
    if (WeakMapHas(wrapperOfStudent, fn)) return WeakMapGet(wrapperOfStudent, fn);
    const w = function (...args) {
      if (after) flush(after);
      const a = [];
      for (let i = 0; i < args.length; i++) P.ArrayPush(a, toRealm(args[i]));
      return toHost(P.ReflectApply(fn, toRealm(this), a), true);
    };
    WeakMapSet(wrapperOfStudent, fn, w);
    WeakMapSet(studentOfWrapper, w, fn);
    return w;
  }
  function flush(after) {
    for (let i = 0; i < after.length; i++) after[i]();
  }

  /** Calls host `fn` on host `self` with the submission's `args`; its result and errors come back in-realm. */
  function callHost(fn, self, args, copy) {
    const after = [];
    const h = [];
    for (let i = 0; i < args.length; i++) P.ArrayPush(h, toHost(args[i], copy, after));
    let out;
    try {
      out = P.ReflectApply(fn, self, h);
    } catch (e) {
      flush(after);
      throw toRealm(e);
    }
    flush(after);
    if (after.length && types.isPromise(out)) out = P.PromiseThen(out, (x) => (flush(after), x), (e) => { flush(after); throw e; });
    return toRealm(out);
  }

  /** An in-realm function calling host function `fn` (with host `self` as `this`). */
  function callable(fn, self, copy = true, hook) {
    if (WeakMapHas(facadeOfHost, fn) && self === undefined) return WeakMapGet(facadeOfHost, fn);
    const f = {
      [fn.name || 'anonymous'](...args) {
        if (hook) hook(args);
        return callHost(fn, self === undefined ? WeakMapGet(hostOfFacade, this) : self === null ? undefined : self, args, copy);
      },
    }[fn.name || 'anonymous'];
    if (self === undefined) WeakMapSet(facadeOfHost, fn, f);
    return f;
  }

  /** The facade of host class `C`: constructible, extensible by the submission, its prototype's API forwarded. */
  function facadeClass(C, copy, hook) {
    if (classes.has(C.prototype)) return WeakMapGet(facadeOfHost, C);
    const parent = getProto(C.prototype);
    const parentProto = parent === null || parent === Object.prototype || parent === Error.prototype || !P.ObjectGetOwnPropertyDescriptor(parent, 'constructor') ?
      parent : facadeClass(parent.constructor, copy, hook).prototype;
    const proto = ObjectCreate(parentProto);
    classes.set(C.prototype, proto);
    const F = function (...args) {
      if (hook) hook(args);
      if (new.target === undefined) return callHost(C, undefined, args, copy);
      const after = [];
      const h = [];
      for (let i = 0; i < args.length; i++) P.ArrayPush(h, toHost(args[i], copy, after));
      let host;
      try {
        host = ReflectConstruct(C, h);
      } catch (e) {
        throw toRealm(e);
      } finally {
        flush(after);
      }
      if (new.target === F) return facadeOf(host, proto);
      const obj = ObjectCreate(new.target.prototype);
      link(obj, host);
      return obj;
    };
    P.ObjectDefineProperty(F, 'name', { value: C.name });
    P.ObjectDefineProperty(F, 'prototype', { value: proto });
    P.ObjectDefineProperty(proto, 'constructor', { value: F, writable: true, configurable: true });
    WeakMapSet(facadeOfHost, C, F);
    forwardMembers(C.prototype, proto, undefined, copy, hook);
    forwardMembers(C, F, C, copy, hook);
    overridable(proto);
    return F;
  }

  /** Copies `host`'s API onto `target`: methods and accessors forward, data is converted. */
  function forwardMembers(host, target, self, copy, hook) {
    const keys = ReflectOwnKeys(host);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k === 'constructor' || k === 'prototype' || k === 'length' || k === 'name' || k === 'caller' || k === 'arguments') continue;
      if (typeof k === 'symbol' ? !WELL_KNOWN.has(k) : k[0] === '_') continue;
      const d = P.ObjectGetOwnPropertyDescriptor(host, k);
      if (d.get || d.set) {
        const get = d.get;
        const set = d.set;
        P.ObjectDefineProperty(target, k, {
          get: get ? function () { return callHost(get, self === undefined ? WeakMapGet(hostOfFacade, this) : self, [], copy); } : undefined,
          set: set ? function (v) { callHost(set, self === undefined ? WeakMapGet(hostOfFacade, this) : self, [v], copy); } : undefined,
          enumerable: d.enumerable, configurable: false,
        });
      } else if (typeof d.value === 'function') {
        const value = isClass(d.value) ? facadeClass(d.value, copy, hook) : callable(d.value, self, copy, hook);
        P.ObjectDefineProperty(target, k, { value, writable: false, enumerable: d.enumerable, configurable: false });
      } else {
        P.ObjectDefineProperty(target, k, { value: toRealm(d.value), writable: false, enumerable: d.enumerable, configurable: false });
      }
    }
  }

  /**
   * The facade of host module `mod`: every function forwards (`hook(name, args)` sees each call first), every class
   * is a facade class, data is copied. `copy`: whether objects of the submission cross as data copies.
   */
  function facadeModule(mod, { copy = true, hook, overrides } = {}, seen) {
    const top = !seen;
    seen = seen || new Map();
    if (seen.has(mod)) return seen.get(mod);
    // A module that is itself a function (assert) stays callable.
    const out = typeof mod === 'function' ? callable(mod, null, copy, hook ? (args) => hook('', args) : undefined) : {};
    seen.set(mod, out);
    const keys = P.ObjectKeys(mod);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k[0] === '_' || (overrides && k in overrides)) continue;
      let v;
      try {
        v = mod[k]; // a lazy getter (fs.promises) is read once, here
      } catch {
        continue;
      }
      const h = hook ? (args) => hook(k, args) : undefined;
      const sub = { copy, hook: hook ? (name, args) => hook(name ? k + '.' + name : k, args) : undefined };
      if (typeof v === 'function' && isClass(v)) out[k] = facadeClass(v, copy, h);
      else if (typeof v === 'function') out[k] = P.ObjectKeys(v).length ? facadeModule(v, sub, seen) : callable(v, mod, copy, h);
      else if (isObj(v) && (getProto(v) === Object.prototype || getProto(v) === null) && !P.ArrayIsArray(v)) out[k] = facadeModule(v, sub, seen);
      else out[k] = toRealm(v);
    }
    if (overrides) for (const k of P.ObjectKeys(overrides)) out[k] = overrides[k];
    return top ? harden(out) : out;
  }

  return { facadeModule, facadeClass, callable, toRealm, toHost, hostOf: (f) => WeakMapGet(hostOfFacade, f) };
}

/** Whether `fn` is a class (or a constructor with an API on its prototype), as opposed to a plain function. */
function isClass(fn) {
  if (types.isGeneratorFunction(fn) || types.isAsyncFunction(fn)) return false;
  const d = P.ObjectGetOwnPropertyDescriptor(fn, 'prototype');
  if (!d || !isObj(d.value)) return false;
  if (/^class\b/.test(P.ReflectApply(Function.prototype.toString, fn, []))) return true;
  const keys = ReflectOwnKeys(d.value);
  return keys.length > 1 || getProto(d.value) !== Object.prototype;
}

module.exports = { createMembrane };
