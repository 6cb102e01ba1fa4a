'use strict';
// A hidden test's promise chain, as esm-to-cjs.cjs instrumentChains rewrote it: `X.then(cb)` is
// `__evigrade_then(X, "then", cb)`. Called on a value the submission made, `then` is the submission's code: it can
// skip the test's callback (or call it with a wrong value and drop the failed assertion) and hand back a settled
// promise, so the test passes having checked nothing (red-team pass, hostile class 10). Here the value is first
// adopted through its own `then` into a promise the harness makes, as `await` adopts it: a `then` that never calls
// back leaves the test to time out, one that calls back with a wrong value fails the test's assertion. A genuine
// promise with the platform's `then` is chained as written.
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
    const then = d ? (d.intrinsic ? METHODS.then : d.value) : undefined;
    if (types.isPromise(x) && then === METHODS.then) return P.ReflectApply(METHODS[name], x, args);
    // Not a thenable: the object's own method, as written.
    if (typeof then !== 'function') return P.ReflectApply(x[name], x, args);
    const settled = new P.OrigPromise((resolve, reject) => {
      if (types.isPromise(x)) P.PromiseThen(x, resolve, reject);
      else P.ReflectApply(then, x, [resolve, reject]);
    });
    return P.ReflectApply(METHODS[name], settled, args);
  };
}

module.exports = { createChains };
