'use strict';
// ES2023's change-array-by-copy methods (toReversed, toSorted, toSpliced, with on arrays; toReversed, toSorted, with on
// typed arrays), written to the spec's steps, for jobs. Every JavaScript job runs with V8's
// --no-harmony-change-array-by-copy (src/runtime/node-flags.ts JOB_V8_FEATURES says why: V8 would add the native methods to
// intrinsics that the start-up snapshot has already frozen, and abort). Installed before lockdown() freezes the
// prototypes, and only where the native methods are missing. Functions print as built-ins do (realm.cjs).
const MAX_ARRAY_LENGTH = 2 ** 32 - 1;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const ArraySort = Function.prototype.call.bind(Array.prototype.sort);
// Function.prototype.toString read at call time: lockdownNow() replaces it (with the printer that hides test code) after
// this module loads, then freezes it.
const FunctionToString = (fn) => Function.prototype.call.call(Function.prototype.toString, fn);
const ObjectToString = Function.prototype.call.bind(Object.prototype.toString);
const TypedArray = Object.getPrototypeOf(Uint8Array);
const TypedArraySort = Function.prototype.call.bind(TypedArray.prototype.sort);
const taGetter = (name) => Function.prototype.call.bind(Object.getOwnPropertyDescriptor(TypedArray.prototype, name).get);
const taName = taGetter(Symbol.toStringTag);
const taLength = taGetter('length');
const CONSTRUCTORS = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array,
  BigInt64Array, BigUint64Array,
};

function toIntegerOrInfinity(value) {
  const n = +value; // ToNumber: throws for a BigInt or a Symbol, as the spec's does
  if (n !== n || n === 0) return 0;
  return n === Infinity || n === -Infinity ? n : Math.trunc(n);
}

function toObject(value) {
  if (value === null || value === undefined) throw new TypeError('Cannot convert undefined or null to object');
  return Object(value);
}

/**
 * How V8's RangeError names a bad index (its side-effect-free ToString: no getter or toString of the submission
 * runs). A function prints through Function.prototype.toString as it is when called — after lockdownNow() the printer
 * that hides the tests' code (red-team pass: printing with the original handed a hidden test callback's whole source
 * to the submission) — cut as V8 cuts a function's source in its messages.
 */
function indexText(index) {
  if (typeof index === 'function') {
    const text = FunctionToString(index);
    return text.length > 128 ? text.slice(0, 111) + '...<omitted>...' + text.slice(-2) : text;
  }
  if (typeof index !== 'object' || index === null) return String(index);
  const toString = dataProperty(index, 'toString');
  if (toString !== Object.prototype.toString) return '[object ' + ObjectToString(index).slice(8, -1) + ']';
  const ctor = dataProperty(index, 'constructor');
  return '#<' + (typeof ctor === 'function' && typeof ctor.name === 'string' && ctor.name ? ctor.name : 'Object') + '>';
}

/** The first data property `key` along o's prototype chain (an accessor counts as absent: it is never called). */
function dataProperty(o, key) {
  for (let p = o; p !== null; p = Object.getPrototypeOf(p)) {
    const d = Object.getOwnPropertyDescriptor(p, key);
    if (d) return 'value' in d ? d.value : undefined;
  }
  return undefined;
}

function lengthOf(o) {
  const len = toIntegerOrInfinity(o.length);
  return len <= 0 ? 0 : Math.min(len, MAX_SAFE);
}

function checkComparator(comparefn) {
  if (comparefn !== undefined && typeof comparefn !== 'function') {
    throw new TypeError('The comparison function must be either a function or undefined');
  }
}

function arrayOfLength(len) {
  if (len > MAX_ARRAY_LENGTH) throw new RangeError('Invalid array length');
  return [];
}

/** `with`'s index as the spec resolves it: a negative one counts from the end (checked against `len` by the caller). */
function actualIndex(len, index) {
  const relative = toIntegerOrInfinity(index);
  return relative >= 0 ? relative : len + relative;
}

/** Reads `from[0..len)` (each index once, in ascending order of `to`'s) into `to`, as is or reversed; returns `to`. */
function copyInto(to, from, len, reversed) {
  for (let k = 0; k < len; k++) to[k] = from[reversed ? len - 1 - k : k];
  return to;
}

/** The spec's ValidateTypedArray and TypedArrayCreateSameType: a new typed array of O's own kind (never a species). */
function sameTypeAs(o) {
  const name = typeof o === 'object' && o !== null ? taName(o) : undefined;
  if (name === undefined) throw new TypeError('this is not a typed array.');
  return { len: taLength(o), Make: CONSTRUCTORS[name] };
}

const arrayMethods = {
  toReversed() {
    const o = toObject(this);
    const len = lengthOf(o);
    return copyInto(arrayOfLength(len), o, len, true);
  },
  toSorted(comparefn) {
    checkComparator(comparefn);
    const o = toObject(this);
    const len = lengthOf(o);
    return ArraySort(copyInto(arrayOfLength(len), o, len, false), comparefn);
  },
  toSpliced(start, skipCount, ...items) {
    const o = toObject(this);
    const len = lengthOf(o);
    const relativeStart = toIntegerOrInfinity(start);
    const actualStart = relativeStart < 0 ? Math.max(len + relativeStart, 0) : Math.min(relativeStart, len);
    let skip = 0;
    if (arguments.length === 1) skip = len - actualStart;
    else if (arguments.length > 1) skip = Math.min(Math.max(toIntegerOrInfinity(skipCount), 0), len - actualStart);
    const newLen = len + items.length - skip;
    if (newLen > MAX_SAFE) throw new TypeError('Invalid array length');
    const a = arrayOfLength(newLen);
    let i = 0;
    for (; i < actualStart; i++) a[i] = o[i];
    for (let j = 0; j < items.length; j++) a[i++] = items[j];
    for (let r = actualStart + skip; i < newLen; i++, r++) a[i] = o[r];
    return a;
  },
  with(index, value) {
    const o = toObject(this);
    const len = lengthOf(o);
    const actual = actualIndex(len, index);
    if (actual >= len || actual < 0) throw new RangeError('Invalid index : ' + indexText(index));
    const a = arrayOfLength(len);
    for (let k = 0; k < len; k++) a[k] = k === actual ? value : o[k];
    return a;
  },
};

const typedArrayMethods = {
  toReversed() {
    const { len, Make } = sameTypeAs(this);
    return copyInto(new Make(len), this, len, true);
  },
  toSorted(comparefn) {
    checkComparator(comparefn);
    const { len, Make } = sameTypeAs(this);
    return TypedArraySort(copyInto(new Make(len), this, len, false), comparefn);
  },
  with(index, value) {
    const { len, Make } = sameTypeAs(this);
    const actual = actualIndex(len, index);
    // The spec's ToNumber/ToBigInt of the value, once and before the index check: a one-element array of the kind does it.
    const converted = new Make(1);
    converted[0] = value;
    if (actual >= len || actual < 0) throw new RangeError('Invalid typed array index');
    const a = new Make(len);
    for (let k = 0; k < len; k++) a[k] = k === actual ? converted[0] : this[k];
    return a;
  },
};

/** Each installed function and its name, for Function.prototype.toString (realm.cjs prints them as built-ins). */
const installed = new Map();

function install(target, methods) {
  for (const name of Object.keys(methods)) {
    if (Object.prototype.hasOwnProperty.call(target, name)) continue;
    Object.defineProperty(target, name, { value: methods[name], writable: true, enumerable: false, configurable: true });
    installed.set(methods[name], name);
  }
}

/** Installs what is missing; returns the functions it installed (name by function). */
function installEs2023() {
  const hadToSorted = Object.prototype.hasOwnProperty.call(Array.prototype, 'toSorted');
  install(Array.prototype, arrayMethods);
  install(TypedArray.prototype, typedArrayMethods);
  if (!hadToSorted) {
    const unscopables = Array.prototype[Symbol.unscopables];
    for (const name of ['toReversed', 'toSorted', 'toSpliced']) unscopables[name] = true;
  }
  return installed;
}

module.exports = { installEs2023, arrayMethods, typedArrayMethods };
