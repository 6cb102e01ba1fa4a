'use strict';
// Test-framework globals as non-configurable accessors: reads return the
// harness's functions; a write is ignored and reported, so a submission cannot
// swap `expect` or `test` for a forgiving fake.
const P = require('./primordials.cjs');

function installGlobals({ jestApi, nodeTestApi, onWrite }) {
  const names = P.ObjectKeys(jestApi);
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const value = jestApi[name];
    P.ObjectDefineProperty(globalThis, name, {
      configurable: false,
      enumerable: false,
      get: () => value,
      set: () => onWrite(name),
    });
  }
  P.ObjectDefineProperty(globalThis, Symbol.for('evigrade.jest'), { value: P.ObjectFreeze({ ...jestApi }) });
  P.ObjectDefineProperty(globalThis, Symbol.for('evigrade.nodeTest'), { value: nodeTestApi });
}

module.exports = { installGlobals };
