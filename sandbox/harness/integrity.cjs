'use strict';
// Tamper detection, now defence in depth. The intrinsics the matchers rely on
// are frozen by lockdown() and the submission runs in its own Compartment, so
// it can reach neither them nor the objects watched here (Node's `Module`, the
// `expect` function, Jest's matcher registry). We still record every own
// property of those harness objects before student code loads and compare at
// every expect() call, around every test and at the end: a difference means
// results from this job cannot be trusted.
const P = require('./primordials.cjs');

const getProto = Object.getPrototypeOf;

// Properties whose mere appearance on a prototype changes how matchers see
// every value (`asymmetricMatch` makes any object match anything, `then` turns
// results into thenables, `toJSON` rewrites serialisation).
const POISON_KEYS = ['asymmetricMatch', '$$typeof', 'then', 'toJSON', 'equals', 'nodeType', 'tester', 'sample'];

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
  const watched = []; // [label, object, snapshot, sealedShape, prototype]
  let firstViolation = null;

  const bindings = []; // [name, value]: the start realm's global bindings verdict code resolves at call time
  /** The values of `names` on the global object now; a later difference is a violation (they are frozen too). */
  function watchBindings(names) {
    for (let i = 0; i < names.length; i++) {
      const d = P.ObjectGetOwnPropertyDescriptor(globalThis, names[i]);
      if (d) P.ArrayPush(bindings, [names[i], d.value, d.get]);
    }
  }
  function checkBindings() {
    for (let i = 0; i < bindings.length; i++) {
      const d = P.ObjectGetOwnPropertyDescriptor(globalThis, bindings[i][0]);
      if (!d || !P.ObjectIs(d.value, bindings[i][1]) || d.get !== bindings[i][2]) return 'globalThis.' + bindings[i][0] + ' was replaced';
    }
    return null;
  }

  function watch(label, obj, sealedShape) {
    P.ArrayPush(watched, [label, obj, snapshotObject(obj), !!sealedShape, getProto(obj)]);
  }

  /** After a change made through the harness's own API (expect.addEqualityTesters), the new state is the one to keep. */
  function rewatch(label) {
    for (let i = 0; i < watched.length; i++) if (watched[i][0] === label) watched[i][2] = snapshotObject(watched[i][1]);
  }

  function checkOne(entry) {
    const [label, obj, snap, sealed, proto] = entry;
    // A watched object that is not frozen (the objects expect.extend adds factories to) could otherwise inherit one.
    if (getProto(obj) !== proto) return label + "'s prototype was replaced";
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
    const b = checkBindings();
    if (b) {
      firstViolation = b;
      return b;
    }
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

  return { watch, watchBindings, rewatch, verify, report, violation: () => firstViolation };
}

module.exports = { createIntegrity };
