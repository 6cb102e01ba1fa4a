'use strict';
// The walk of issue 30's reachability proof, shared by the walker process (realm-walk.cjs) and the walk a hidden test
// makes inside a real graded job (realm-walk.test.ts inlines this file's source into its test file, where `require`
// is the tests' own). Runs no code of what it walks: own properties and symbols, prototypes, accessor functions.
const { types } = require('node:util');

const isObj = (v) => v !== null && (typeof v === 'object' || typeof v === 'function');

/** Every object reachable from `roots` by own properties (symbols too), prototypes and accessor functions, no call made. */
function reach(roots, stopAt, onEdge) {
  const seen = new Set();
  const queue = [];
  const push = (v, where) => {
    if (!isObj(v) || seen.has(v) || (stopAt && stopAt.has(v))) return;
    seen.add(v);
    queue.push([v, where]);
    if (onEdge) onEdge(v, where);
  };
  for (const [v, where] of roots) push(v, where);
  while (queue.length) {
    const [v, where] = queue.shift();
    if (types.isProxy(v)) continue; // a harness Proxy (process.env) is walked through its target below
    push(Object.getPrototypeOf(v), where + '.__proto__');
    for (const k of Reflect.ownKeys(v)) {
      let d;
      try {
        d = Object.getOwnPropertyDescriptor(v, k);
      } catch {
        continue;
      }
      const name = where + (typeof k === 'symbol' ? '[' + String(k) + ']' : '.' + k);
      if ('value' in d) push(d.value, name);
      else {
        push(d.get, name + '<get>');
        push(d.set, name + '<set>');
      }
    }
  }
  return seen;
}

/**
 * The intrinsics a Compartment shares, and what the start realm's lockdown froze: not Node's doing. Hidden intrinsics
 * (iterator and generator prototypes…) are reached from values of their kind made in a Compartment.
 */
function intrinsicsOf(Compartment, start) {
  const hidden = new Compartment()
    .evaluate(`[async function* () {}, function* () {}, async function () {}, [][Symbol.iterator](), new Map()[Symbol.iterator](),
  new Set()[Symbol.iterator](), ''[Symbol.iterator](), /a/[Symbol.matchAll]('a'), (function* () {})(), (async function* () {})(), new Uint8Array(0)]`);
  return reach([
    [new Compartment().globalThis, 'intrinsics'],
    [hidden, 'hidden intrinsics'],
    // The language's own constructors lockdown() froze that a Compartment does not list (the float typed arrays: ses
    // leaves them out; realm.cjs endows them).
    ...[
      'WeakRef',
      'FinalizationRegistry',
      'Error',
      'Date',
      'RegExp',
      'Function',
      'Math',
      'Intl',
      'Float32Array',
      'Float64Array',
    ].map((n) => [start[n], n]),
  ]);
}

/** Objects not frozen, and (once Node's graph is known) objects of Node's; `own` is the submission's global object. */
function check(reached, host, own) {
  const violations = [];
  for (const [v, where] of reached) {
    if (v === own) continue; // the submission's own global object: its own, like its module objects
    if (host && host.has(v)) violations.push('host object: ' + where);
    else if (!types.isProxy(v) && !Object.isFrozen(v)) violations.push('not frozen: ' + where);
  }
  return violations;
}

module.exports = { isObj, reach, intrinsicsOf, check };
