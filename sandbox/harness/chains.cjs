'use strict';
// A hidden test's promise chain, as esm-to-cjs.cjs instrumentChains rewrote it: `X.then(cb)` is
// `__evigrade_then(X, "then", cb)`. On a genuine promise the submission tampered with — its own `then`, or a
// `constructor`/`Symbol.species` of its own, which Promise.prototype.then uses to build what it returns — the chain
// would be the submission's: it could skip the test's callback and hand back a settled promise, and the test would
// pass having checked nothing (red-team passes, hostile class 10). Such a promise is first adopted through the
// platform's `then` (its real outcome) into a promise the harness makes. A genuine promise left alone is chained as
// written, and so is any other thenable: a value of a class the submission wrote (a hand-written promise is the
// code under test in some exercises) keeps its own `then`, as under Jest.
const P = require('./primordials.cjs');
const { types } = require('node:util');
const { descriptorOnChain } = require('./guard.cjs');

const METHODS = { then: Promise.prototype.then, catch: Promise.prototype.catch, finally: Promise.prototype.finally };

function createChains(tamper) {
  return function chain(x, name, ...args) {
    // Not an object: as written (a TypeError where there would be one).
    if (x === null || (typeof x !== 'object' && typeof x !== 'function')) return x[name](...args);
    const d = descriptorOnChain(x, 'then');
    if (d && (d.proxy || (!d.intrinsic && !('value' in d)))) {
      const why = "the value's then is computed (a Proxy or an accessor)";
      tamper('tampering.self_equality', '.' + name + '(): ' + why);
      throw new P.Error('evigrade: .' + name + '() cannot run: ' + why + ". The submission would decide whether the test's callback runs.");
    }
    // Anything but a genuine promise: as written.
    if (!types.isPromise(x)) return P.ReflectApply(x[name], x, args);
    const then = d ? (d.intrinsic ? METHODS.then : d.value) : undefined;
    if (then === METHODS.then && ownMethod(x, name) && platformSpecies(x)) return P.ReflectApply(METHODS[name], x, args);
    const settled = new P.OrigPromise((resolve, reject) => P.PromiseThen(x, resolve, reject));
    return P.ReflectApply(METHODS[name], settled, args);
  };
}

/** Whether `x.catch`/`x.finally` (what the test calls) is the platform's. */
function ownMethod(x, name) {
  if (name === 'then') return true;
  const d = descriptorOnChain(x, name);
  return !!d && (d.intrinsic || d.value === METHODS[name]);
}

/** Whether what Promise.prototype.then builds its result with (x.constructor[Symbol.species]) is the platform's. */
function platformSpecies(x) {
  const c = descriptorOnChain(x, 'constructor');
  if (!c || c.proxy) return false;
  if (c.intrinsic) return true; // Promise.prototype's own, under lockdown's override taming
  return c.value === Promise || c.value === P.OrigPromise;
}

module.exports = { createChains };
