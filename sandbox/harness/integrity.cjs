'use strict';
// Tamper detection. Matchers (the `expect` package) run in the same realm as
// student code and rely on ordinary intrinsics (Object.is, Object.keys, the
// Promise and Array prototypes...). We record every own property of those
// intrinsics, plus the harness's own globals and the matcher registry, before
// student code loads, and compare at every expect() call, around every test and
// at the end. A difference means results from this job cannot be trusted.
const P = require('./primordials.cjs');

const INTRINSICS = [
  ['Object', Object], ['Object.prototype', Object.prototype], ['Function.prototype', Function.prototype],
  ['Array', Array], ['Array.prototype', Array.prototype], ['String', String], ['String.prototype', String.prototype],
  ['Number', Number], ['Number.prototype', Number.prototype], ['Boolean.prototype', Boolean.prototype],
  ['Symbol', Symbol], ['Symbol.prototype', Symbol.prototype], ['Map.prototype', Map.prototype],
  ['Set.prototype', Set.prototype], ['WeakMap.prototype', WeakMap.prototype], ['Reflect', Reflect], ['JSON', JSON],
  ['Math', Math], ['Date', Date], ['Date.prototype', Date.prototype], ['RegExp.prototype', RegExp.prototype],
  ['Error', Error], ['Error.prototype', Error.prototype], ['Promise', Promise], ['Promise.prototype', Promise.prototype],
  ['Buffer', Buffer], ['Uint8Array.prototype', Uint8Array.prototype],
  ['Object.getPrototypeOf(Uint8Array.prototype)', Object.getPrototypeOf(Uint8Array.prototype)],
];

// Properties whose mere appearance on a prototype changes how matchers see
// every value (`asymmetricMatch` makes any object match anything, `then` turns
// results into thenables, `toJSON` rewrites serialisation).
const POISON_KEYS = ['asymmetricMatch', '$$typeof', 'then', 'toJSON', 'equals', 'nodeType', 'tester', 'sample'];
// Prototypes where no new property at all is legitimate in graded code.
const SEALED_SHAPE = new Set(['Object.prototype', 'Function.prototype', 'Promise.prototype']);

function keysOf(obj) {
  const names = P.ObjectGetOwnPropertyNames(obj);
  const syms = P.ObjectGetOwnPropertySymbols(obj);
  const out = [];
  for (let i = 0; i < names.length; i++) P.ArrayPush(out, names[i]);
  for (let i = 0; i < syms.length; i++) P.ArrayPush(out, syms[i]);
  return out;
}

function describeKey(k) {
  return typeof k === 'symbol' ? P.String(k.description ? 'Symbol(' + k.description + ')' : 'Symbol()') : k;
}

function snapshotObject(obj) {
  const map = new P.SafeMap();
  const keys = keysOf(obj);
  for (let i = 0; i < keys.length; i++) {
    const d = P.ObjectGetOwnPropertyDescriptor(obj, keys[i]);
    P.MapSet(map, keys[i], [d.value, d.get, d.set]);
  }
  return map;
}

function createIntegrity() {
  const watched = []; // [label, object, snapshot, sealedShape]
  let firstViolation = null;

  function watch(label, obj, sealedShape) {
    P.ArrayPush(watched, [label, obj, snapshotObject(obj), !!sealedShape]);
  }
  for (let i = 0; i < INTRINSICS.length; i++) {
    watch(INTRINSICS[i][0], INTRINSICS[i][1], SEALED_SHAPE.has(INTRINSICS[i][0]));
  }

  function checkOne(entry) {
    const [label, obj, snap, sealed] = entry;
    const keys = keysOf(obj);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const d = P.ObjectGetOwnPropertyDescriptor(obj, k);
      if (!P.MapHas(snap, k)) {
        if (sealed || POISON_KEYS.includes(k)) return label + '.' + describeKey(k) + ' was added';
        continue;
      }
      const was = P.MapGet(snap, k);
      // Only behaviour counts: functions and accessors. Data such as
      // Error.stackTraceLimit is legitimately changed by ordinary code.
      const fnNow = typeof d.value === 'function' || d.get !== undefined || d.set !== undefined;
      const fnWas = typeof was[0] === 'function' || was[1] !== undefined || was[2] !== undefined;
      if ((fnNow || fnWas) && (was[0] !== d.value || was[1] !== d.get || was[2] !== d.set)) {
        return label + '.' + describeKey(k) + ' was replaced';
      }
    }
    if (keys.length < snap.size && sealed) return label + ' lost a property';
    return null;
  }

  /** Returns the first violation seen so far (sticky), or null. */
  function verify() {
    if (firstViolation) return firstViolation;
    for (let i = 0; i < watched.length; i++) {
      const v = checkOne(watched[i]);
      if (v) {
        firstViolation = v;
        break;
      }
    }
    return firstViolation;
  }

  function report(detail) {
    if (!firstViolation) firstViolation = detail;
  }

  return { watch, verify, report, violation: () => firstViolation };
}

module.exports = { createIntegrity };
