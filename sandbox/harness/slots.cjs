'use strict';
// Copies of values Jest compares by an internal slot (a Date's time, a RegExp's source and flags, a typed array's
// elements), made through the platform's own functions only: no method, getter or `constructor` of the submission's
// runs, whatever class the value is of. guard.cjs reads a subclass's getter once into such a copy (same prototype),
// as it does for plain objects, instead of refusing the value (issue 30: a `get iso()` on a Date subclass is honest).
const { types } = require('node:util');

const uncurry = (fn) => Function.prototype.call.bind(fn);
const getOwn = Object.getOwnPropertyDescriptor;
const define = Object.defineProperty;
const getter = (proto, key) => uncurry(Object.getOwnPropertyDescriptor(proto, key).get);

const IntrinsicDate = Date;
const IntrinsicRegExp = RegExp;
const DateGetTime = uncurry(Date.prototype.getTime);
const RegExpSource = getter(RegExp.prototype, 'source');
// Each flag through its own getter: the intrinsic `flags` getter reads `this.global`… by property lookup, which a
// subclass's getters would answer.
const FLAGS = [
  ['hasIndices', 'd'],
  ['global', 'g'],
  ['ignoreCase', 'i'],
  ['multiline', 'm'],
  ['dotAll', 's'],
  ['unicode', 'u'],
  ['unicodeSets', 'v'],
  ['sticky', 'y'],
]
  .filter(([name]) => Object.getOwnPropertyDescriptor(RegExp.prototype, name))
  .map(([name, letter]) => [getter(RegExp.prototype, name), letter]);
const TypedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
const TypedArrayKind = getter(TypedArrayProto, Symbol.toStringTag);
const TYPED = new Map(
  ['Int8', 'Uint8', 'Uint8Clamped', 'Int16', 'Uint16', 'Int32', 'Uint32', 'Float32', 'Float64', 'BigInt64', 'BigUint64'].map(
    (k) => [k + 'Array', globalThis[k + 'Array']],
  ),
);

/** Whether `v` is a value slotCopy can copy. */
const hasSlotCopy = (v) => types.isDate(v) || types.isRegExp(v) || types.isTypedArray(v);

/**
 * Whether `v` has internal slots a copy would not carry (a Promise, a boxed primitive, an ArrayBuffer or DataView, a
 * WeakMap or WeakSet): such a value is compared as it is, never copied (guard.cjs, accessors.cjs). Maps, Sets and
 * errors are copied with what Jest compares of them; Dates, RegExps and typed arrays through slotCopy.
 */
const uncopiedSlots = (v) =>
  !hasSlotCopy(v) &&
  (types.isPromise(v) || ArrayBuffer.isView(v) || types.isAnyArrayBuffer(v) || types.isBoxedPrimitive(v) || types.isWeakMap(v) || types.isWeakSet(v));

/**
 * Puts own property `k` (descriptor `d`) on a copy `c`, configurable so a value read later can take its place — except
 * where the copy already has `k` as a non-configurable own property its slot keeps (a RegExp's lastIndex): that takes
 * the value, not the descriptor.
 */
function putOwn(c, k, d) {
  const kept = getOwn(c, k);
  if (kept !== undefined && !kept.configurable) {
    if ('value' in d) c[k] = d.value;
    return;
  }
  d.configurable = true;
  define(c, k, d);
}

/** A new value of `v`'s intrinsic kind holding what its slots hold (no prototype of the submission's yet), or null. */
function slotCopy(v) {
  if (types.isDate(v)) return new IntrinsicDate(DateGetTime(v));
  if (types.isRegExp(v)) {
    let flags = '';
    for (let i = 0; i < FLAGS.length; i++) if (FLAGS[i][0](v)) flags += FLAGS[i][1];
    return new IntrinsicRegExp(RegExpSource(v), flags);
  }
  if (types.isTypedArray(v)) {
    const Kind = TYPED.get(TypedArrayKind(v));
    // A typed array source is copied element by element from its buffer: no iterator, no species.
    return Kind ? new Kind(v) : null;
  }
  return null;
}

module.exports = { hasSlotCopy, slotCopy, uncopiedSlots, putOwn };
