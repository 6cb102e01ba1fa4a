'use strict';
// A frozen prototype's data properties cannot be shadowed by assignment on an object that inherits them (the
// "override mistake": `Sub.prototype.on = …`, `Sub.prototype.constructor = Sub` throw in strict code). ses's
// overrideTaming does this for the intrinsics; the same is done here for the prototypes of the in-realm ports and
// facade classes the Compartment is given, before they are hardened: each data property becomes an accessor whose
// setter defines an own property on the object assigned to (and refuses on the prototype itself, which stays frozen).
const P = require('./primordials.cjs');

function overridable(proto) {
  const keys = Reflect.ownKeys(proto);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const d = P.ObjectGetOwnPropertyDescriptor(proto, k);
    if (!('value' in d) || !d.configurable) continue;
    const value = d.value;
    P.ObjectDefineProperty(proto, k, {
      get() {
        return value;
      },
      set(v) {
        if (this === proto) throw new TypeError('Cannot assign to read only property ' + P.String(typeof k === 'symbol' ? 'a symbol' : k) + ' of a frozen prototype');
        P.ObjectDefineProperty(this, k, { value: v, writable: true, enumerable: true, configurable: true });
      },
      enumerable: d.enumerable,
      configurable: false,
    });
  }
}

/** The prototypes of every class `exports` offers (its own functions and those of its plain objects, two levels). */
function overridableExports(exports, depth = 0) {
  if (exports === null || (typeof exports !== 'object' && typeof exports !== 'function') || depth > 2) return;
  if (typeof exports === 'function' && exports.prototype && typeof exports.prototype === 'object' && !Object.isFrozen(exports.prototype)) overridable(exports.prototype);
  for (const k of P.ObjectKeys(exports)) {
    const d = P.ObjectGetOwnPropertyDescriptor(exports, k);
    if (d && 'value' in d) overridableExports(d.value, depth + 1);
  }
}

module.exports = { overridable, overridableExports };
