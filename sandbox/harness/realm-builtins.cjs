'use strict';
// What the submission's Compartment is given (issue 30): nothing Node made. Each built-in it may load, and each
// global it is endowed with, is one of
// - an in-realm instance: a userland port evaluated inside the Compartment (events, buffer and the Buffer global,
//   string_decoder, stream: classes a submission extends, whose methods Node's internals would otherwise call with
//   the real `process` as `this`), or harness functions that call the submission's code with in-realm values only
//   (timers, util.inherits/promisify/callbackify/deprecate, the process facade, console);
// - a facade made by membrane.cjs over Node's module (fs, os, crypto, zlib, url, path, util, assert…), whose
//   functions never return a host object and never hand Node a function or object of the submission;
// - for modules that can only reach outside the job (child_process, net, http…), a facade whose every call is
//   recorded as an attempt (`sandbox.attempt.spawn` / `.network`) and refused with an in-realm error.
// tests/integration/realm-walk.test.ts walks everything a submission can reach from its global object and every
// module it may load, and fails on anything not frozen or belonging to Node's object graph.
const P = require('./primordials.cjs');
const path = require('node:path');
const util = require('node:util');
const { createMembrane } = require('./membrane.cjs');
const { overridableExports } = require('./overridable.cjs');

// Node's own: the tests' global Buffer is the realm's class once tests load (loaders.cjs).
const HostBuffer = Buffer;

const USERLAND = ['events', 'buffer', 'string_decoder', 'stream'];
const SPAWN = ['child_process'];
const NETWORK = ['net', 'dns', 'dns/promises', 'http', 'https', 'http2', 'dgram', 'tls', 'readline', 'readline/promises', 'tty'];
// Functions of the network modules that compute on their arguments only (no socket): served as they are.
const PURE_NETWORK = new Set(['isIP', 'isIPv4', 'isIPv6', 'validateHeaderName', 'validateHeaderValue']);
// Modules whose functions inspect the submission's values (compare, format, classify) rather than do I/O with them:
// objects pass as they are (functions still cross as wrappers). util.inspect never runs a custom inspect method
// (Node would hand it its own options object and `inspect`).
const INSPECTING = ['assert', 'assert/strict', 'util', 'util/types', 'path', 'path/posix', 'path/win32', 'querystring', 'punycode'];

/**
 * @param {object} o
 * @param {string} o.root
 * @param {() => object} o.compartment
 * @param {(kind: string, detail: string) => void} o.attempt
 */
function createBuiltins(o) {
  let userland = null;
  const membrane = createMembrane({ realmBuffer: () => o.load('buffer').Buffer, realmIntrinsics: () => o.compartment().globalThis });

  /** A userland port, evaluated once per Compartment; its requires of other built-ins are the realm's. */
  function evaluateUserland(name) {
    userland = userland || require('./gen/userland.cjs');
    const fn = o.compartment().evaluate('(function (module, exports, require) {' + userland[name] + '\n})');
    const mod = { exports: {} };
    P.ReflectApply(fn, undefined, [mod, mod.exports, harden((n) => o.load(n))]);
    overridableExports(mod.exports);
    return harden(mod.exports);
  }

  function refusing(name, kind) {
    const mod = require('node:' + name);
    return membrane.facadeModule(mod, {
      hook: (fn, args) => {
        if (PURE_NETWORK.has(fn)) return;
        o.attempt(kind, 'require("' + name + '").' + fn + '(' + describeArgs(args) + ')');
        const e = new (o.compartment().globalThis.Error)('Access to this API has been restricted: ' + name + '.' + fn + ' is not available inside the grading sandbox');
        e.code = 'ERR_ACCESS_DENIED';
        throw e;
      },
    });
  }

  /** An fs call naming a path outside the submission's folder and /tmp is an attempt (Node's permission model refuses it). */
  function fsHook(fn, args) {
    for (let i = 0; i < 2 && i < args.length; i++) {
      const p = pathOf(args[i]);
      if (p === null) continue;
      const abs = path.resolve(o.root, p);
      if (abs === o.root || abs.startsWith(o.root + '/') || abs === '/tmp' || abs.startsWith('/tmp/')) continue;
      o.attempt('read_outside', 'fs.' + fn + '(' + JSON.stringify(abs) + ')');
    }
  }

  function pathOf(a) {
    if (typeof a === 'string') return a;
    if (a === null || typeof a !== 'object') return null;
    try {
      return ArrayBuffer.isView(a) ? P.String(HostBuffer.from(a.buffer, a.byteOffset, a.byteLength)) : require('node:url').fileURLToPath(membrane.toHost(a, true));
    } catch {
      return null;
    }
  }

  function utilFacade() {
    const inspect = (v, opts) => util.inspect(v, { ...(opts && typeof opts === 'object' ? membrane.toHost(opts, true) : {}), customInspect: false });
    P.ObjectDefineProperty(inspect, 'custom', { value: util.inspect.custom });
    const format = (...args) => util.formatWithOptions({ customInspect: false }, ...args);
    return membrane.facadeModule(util, {
      copy: false,
      overrides: {
        inspect, format, inherits, promisify, callbackify, deprecate,
        formatWithOptions: (opts, ...args) => util.formatWithOptions({ ...membrane.toHost(opts, true), customInspect: false }, ...args),
        debuglog: () => Object.assign(() => {}, { enabled: false }), debug: () => Object.assign(() => {}, { enabled: false }),
      },
    });
  }

  function build(name) {
    if (USERLAND.includes(name)) return evaluateUserland(name);
    if (SPAWN.includes(name)) return refusing(name, 'spawn');
    if (NETWORK.includes(name)) return refusing(name, 'network');
    if (name === 'util') return utilFacade();
    if (name === 'timers') return harden({ ...timers() });
    if (name === 'stream/promises') {
      const s = o.load('stream');
      return harden({ pipeline: promisify(s.pipeline), finished: promisify(s.finished) });
    }
    const mod = require('node:' + name);
    if (name === 'fs' || name === 'fs/promises') return membrane.facadeModule(mod, { hook: fsHook });
    return membrane.facadeModule(mod, { copy: !INSPECTING.includes(name) });
  }

  /** Timers whose callbacks Node never calls itself (its `this` would be Node's Timeout), with in-realm handles. */
  function timers() {
    const handles = new WeakMap();
    const make = (set, clear) => {
      const start = function (fn, ms, ...args) {
        if (typeof fn !== 'function') throw new (o.compartment().globalThis.TypeError)('The "callback" argument must be of type function');
        const t = P.ReflectApply(set, globalThis, [() => P.ReflectApply(fn, undefined, args), ms]);
        const h = harden({
          ref() { t.ref(); return h; }, unref() { t.unref(); return h; }, hasRef: () => t.hasRef(), refresh() { t.refresh(); return h; },
          [Symbol.toPrimitive]: () => +t,
        });
        handles.set(h, t);
        return h;
      };
      const stop = (h) => {
        if (handles.has(h)) P.ReflectApply(clear, globalThis, [handles.get(h)]);
      };
      return [start, stop];
    };
    const [setTimeout, clearTimeout] = make(globalThis.setTimeout, globalThis.clearTimeout);
    const [setInterval, clearInterval] = make(globalThis.setInterval, globalThis.clearInterval);
    const [setImmediate0, clearImmediate] = make((fn) => globalThis.setImmediate(fn), globalThis.clearImmediate);
    const setImmediate = (fn, ...args) => setImmediate0(fn, 0, ...args);
    return { setTimeout, clearTimeout, setInterval, clearInterval, setImmediate, clearImmediate };
  }

  return { build, membrane, timers, NETWORK, SPAWN };
}

function describeArgs(args) {
  const out = [];
  for (let i = 0; i < args.length && i < 3; i++) {
    const a = args[i];
    out.push(typeof a === 'string' ? JSON.stringify(a.slice(0, 200)) : typeof a === 'function' ? 'function' : a === null ? 'null' : typeof a === 'object' ? 'object' : String(a));
  }
  return out.join(', ');
}

// util's functions that call the submission's functions: written here so Node never calls them.
function inherits(ctor, superCtor) {
  if (typeof ctor !== 'function' || typeof superCtor !== 'function' || superCtor.prototype === undefined) {
    throw new TypeError('The "ctor" and "superCtor" arguments must be functions with a prototype');
  }
  Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}
const CUSTOM_PROMISIFY = util.promisify.custom;
function promisify(original) {
  if (typeof original !== 'function') throw new TypeError('The "original" argument must be of type function');
  const custom = original[CUSTOM_PROMISIFY];
  if (typeof custom === 'function') return custom;
  const fn = function (...args) {
    return new Promise((resolve, reject) => {
      P.ReflectApply(original, this, [...args, harden((err, ...values) => (err ? reject(err) : resolve(values[0])))]);
    });
  };
  Object.setPrototypeOf(fn, Object.getPrototypeOf(original));
  return Object.defineProperties(fn, Object.getOwnPropertyDescriptors(original));
}
promisify.custom = CUSTOM_PROMISIFY;
function callbackify(original) {
  if (typeof original !== 'function') throw new TypeError('The "original" argument must be of type function');
  return function (...args) {
    const cb = args.pop();
    if (typeof cb !== 'function') throw new TypeError('The last argument must be of type function');
    P.PromiseThen(P.ReflectApply(original, this, args), (v) => queueMicrotask(() => cb(null, v)), (e) => queueMicrotask(() => cb(e || new Error('Promise was rejected with a falsy value'))));
  };
}
function deprecate(fn, msg) {
  let warned = false;
  return function (...args) {
    if (!warned) {
      warned = true;
      P.writeSync(2, '(node) DeprecationWarning: ' + String(msg) + '\n');
    }
    return new.target ? Reflect.construct(fn, args, new.target) : P.ReflectApply(fn, this, args);
  };
}

module.exports = { createBuiltins, USERLAND };
