'use strict';
// The student's realm. `lockdown()` freezes every JavaScript intrinsic before
// any other code runs; the submission is then evaluated, strict, inside one
// ses Compartment whose global object holds only the endowments below. Student
// code therefore shares no mutable object with the harness: it cannot reach
// `process`, `require`, the harness's modules, Jest's `expect` state, the
// results channel or the start realm's global object, and everything it can
// reach (intrinsics, endowments, the pure built-ins) is frozen. Values cross
// freely: a Compartment shares the (frozen) intrinsics with the start realm,
// so arrays, errors and classes made by the submission are ordinary values to
// `expect` (`instanceof Array`, `instanceof Error` hold).
const P = require('./primordials.cjs');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const vm = require('node:vm');
const { esmToCjs, rewriteScriptImports, acornParse, scriptSyntaxLine } = require('./esm-to-cjs.cjs');
const { installEs2023 } = require('./es2023.cjs');
const { createBuiltins } = require('./realm-builtins.cjs');
const nodeUtil = require('node:util');

const LOCKDOWN_OPTIONS = {
  errorTaming: 'unsafe', overrideTaming: 'severe', consoleTaming: 'unsafe', stackFiltering: 'verbose',
  domainTaming: 'unsafe', localeTaming: 'unsafe',
  // The harness handles uncaught errors itself (they fail the running test, as in Jest).
  errorTrapping: 'none', unhandledRejectionTrapping: 'none', reporting: 'none',
};
// The hidden tests' text: a function whose source is part of them prints as `[hidden test code]` (a callback a test
// hands to the submission must not reveal the test). Filled per job (hideTestSources); the printer reading it is
// installed by lockdownNow(), before lockdown freezes Function.prototype.
const hiddenTexts = [];
let lockedDown = false;

/**
 * Freezes every intrinsic (ses's lockdown()), once per process: in the builder of the start-up snapshot when jobs
 * start from one (snapshot.cjs), else at the start of the job. Before it: the ES2023 methods jobs lack
 * (es2023.cjs) and the Function.prototype.toString that hides test code and prints those methods as built-ins.
 */
function lockdownNow() {
  if (lockedDown) return;
  lockedDown = true;
  const polyfills = installEs2023();
  require('ses');
  const nativeToString = Function.prototype.toString;
  const includes = Function.prototype.call.bind(String.prototype.includes);
  const mapGet = Function.prototype.call.bind(Map.prototype.get);
  P.ObjectDefineProperty(Function.prototype, 'toString', {
    value: {
      toString() {
        const builtin = mapGet(polyfills, this);
        if (builtin !== undefined) return 'function ' + builtin + '() { [native code] }';
        const s = P.ReflectApply(nativeToString, this, []);
        if (s.length < 2 || s.endsWith('{ [native code] }')) return s;
        for (let i = 0; i < hiddenTexts.length; i++) if (includes(hiddenTexts[i], s)) return 'function () { [hidden test code] }';
        return s;
      },
    }.toString,
    writable: true, enumerable: false, configurable: true,
  });
  lockdown(LOCKDOWN_OPTIONS);
}

// The start realm's global bindings of the language (Object, Math, JSON, Promise…): lockdown() freezes the objects
// but leaves these bindings writable, and Jest's matchers and the signer look them up at every call. Made
// non-writable and non-configurable by each job right after lockdown() (not in the start-up snapshot: node's own
// start-up after deserialisation sets some of them), before any test or student code exists; integrity.cjs checks
// them too (issue 30).
const frozenGlobals = [];
// ECMAScript's own global bindings a Compartment does not list (ses leaves them out of its globals).
const LANGUAGE_GLOBALS = ['Float32Array', 'Float64Array', 'Intl', 'WeakRef', 'FinalizationRegistry', 'Iterator'];
function freezeGlobalBindings() {
  const names = [...P.ObjectGetOwnPropertyNames(new Compartment().globalThis), ...LANGUAGE_GLOBALS];
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const d = P.ObjectGetOwnPropertyDescriptor(globalThis, name);
    if (!d || !('value' in d) || name === 'globalThis' || frozenGlobals.includes(name)) continue;
    if (d.configurable) P.ObjectDefineProperty(globalThis, name, { value: d.value, writable: false, enumerable: d.enumerable, configurable: false });
    P.ArrayPush(frozenGlobals, name);
  }
}

/**
 * The host objects every Compartment is endowed with, and the interop helpers its modules call: hardened once per
 * process, in the start-up snapshot's builder when there is one (hardening what is already frozen costs nothing).
 */
function hardenShared() {
  harden([interopDefault, namespace, star]);
}

/** @param {string[]} testSources  this job's hidden tests, as received and as rewritten */
function hideTestSources(testSources) {
  for (let i = 0; i < testSources.length; i++) P.ArrayPush(hiddenTexts, testSources[i]);
}

// Built-ins a submission may `require`/`import`. "pure": hardened (deep-frozen)
// modules or frozen facades that touch no job state. "host": Node modules whose
// effects the OS sandbox contains (files, processes, sockets); the submission
// gets a frozen copy of the module object. Nothing the harness uses to decide
// or sign verdicts consults any of them. Anything else is refused.
const PURE = ['assert', 'assert/strict', 'path', 'path/posix', 'path/win32', 'util', 'url', 'string_decoder', 'buffer', 'timers', 'timers/promises', 'querystring'];
const HOST = ['fs', 'fs/promises', 'child_process', 'os', 'net', 'dns', 'dns/promises', 'http', 'https', 'events', 'stream', 'readline', 'zlib', 'crypto'];
// Each is served by realm-builtins.cjs: an in-realm port, a membrane facade, or (outside the job) a refusing facade.
// Reach the harness's realm, its resources or the process itself: refused and reported, whatever the rubric says
// (src/domain/rubric.ts GRANTABLE_BUILTINS lists what a rubric may add).
const REFUSED = new Set(['inspector', 'inspector/promises', 'vm', 'module', 'worker_threads', 'v8', 'repl', 'cluster', 'async_hooks',
  'diagnostics_channel', 'trace_events', 'wasi', 'test', 'sys']);

const ENTRY_EXTENSIONS = ['', '.js', '.mjs', '.cjs', '.json', '/index.js', '/index.mjs', '/index.cjs'];
const ESM_SYNTAX = /^\s*(import\s*[\w*{'"$]|export\s+(?:default|const|let|var|function|class|async|\{|\*))/m;

function isFile(p) {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function formatOf(abs, source) {
  if (abs.endsWith('.mjs')) return 'module';
  if (abs.endsWith('.cjs')) return 'commonjs';
  if (abs.endsWith('.json')) return 'json';
  if (ESM_SYNTAX.test(source.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, ''))) return 'module';
  // Node's rule for an ambiguous .js: CommonJS unless only a module parse accepts it (an `export` after other
  // code on its line, `import.meta`, top-level await). Parsing never runs the code.
  if (!/\b(?:import|export|await)\b/.test(source)) return 'commonjs';
  return parses(() => vm.compileFunction(source.startsWith('#!') ? '//' + source.slice(2) : source, CJS_PARAMS)) ||
    !parses(() => acornParse(source)) ? 'commonjs' : 'module';
}

const CJS_PARAMS = ['exports', 'require', 'module', '__filename', '__dirname'];

function parses(fn) {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
}

/**
 * @param {object} o
 * @param {string} o.root        the submission's folder
 * @param {(code: string, detail: string) => void} o.tamper
 * @param {(what: string) => void} o.onBlocked
 * @param {() => never} o.refuseExit  process.exit as the submission sees it
 * @param {Record<string, Function>} o.testGlobals  describe/test/... for the submission: each refuses and reports
 * @param {string[]} [o.extraBuiltins]  further host modules a rubric allows
 * @param {((abs: string, wrapper: string, ownFrom: number) => void) | null} [o.onEvaluated]  a rubric audit's coverage: each file's evaluated text and where the file's own code starts in it
 */
// Conventions that say how code should behave, not where anything is or whose it is: libraries and honest
// submissions read them (`process.env.NODE_ENV === 'production'`), so a read of one is not an attempt.
const CONVENTIONAL_ENV = new Set(['NODE_ENV', 'NODE_DEBUG', 'DEBUG', 'TZ', 'LANG', 'LC_ALL', 'NO_COLOR', 'FORCE_COLOR', 'TERM']);

/**
 * `process.env` for the submission: a frozen copy of the job's own environment (the sandbox's, cleared), behind a
 * Proxy whose every trap that tells something of it is evidence — a name read, probed (`in`) or described, each
 * once, and the names enumerated (`Object.keys`, `for…in`, `Object.entries`, a spread, JSON.stringify: all ask
 * `ownKeys`), once; after an enumeration, the reads of the names it listed are that enumeration's. Nothing is
 * recorded until `arm()`: hardening the facade walks it too.
 */
function envFacade(attempt) {
  const recorded = new Set();
  let armed = false;
  let enumerated = false;
  const noteName = (k) => {
    if (!armed || typeof k !== 'string' || enumerated || recorded.has(k) || CONVENTIONAL_ENV.has(k)) return;
    recorded.add(k);
    attempt('env', 'process.env.' + k);
  };
  const env = new Proxy(P.ObjectFreeze({ ...process.env }), {
    get(t, k) {
      noteName(k);
      return t[k];
    },
    has(t, k) {
      noteName(k);
      return k in t;
    },
    getOwnPropertyDescriptor(t, k) {
      noteName(k);
      return P.ObjectGetOwnPropertyDescriptor(t, k);
    },
    ownKeys(t) {
      if (armed && !enumerated) {
        enumerated = true;
        attempt('env', 'process.env (every name enumerated)');
      }
      return Reflect.ownKeys(t);
    },
  });
  return { env, arm: () => (armed = true) };
}

function createStudentRealm(o) {
  const root = o.root;
  const allowed = new Set([...PURE, ...HOST, ...(o.extraBuiltins || []).filter((n) => !REFUSED.has(n))]);
  const builtinCache = new Map();
  const cache = new Map();
  // Where in the submission a load failed, for an error that cannot say it itself: a file that does not parse (the
  // innermost, not the file requiring it), or an import of a module that does not exist. Error -> file and line, kept
  // here, never written on the thrown value.
  const placed = new WeakMap();
  const missing = new WeakMap(); // a "Cannot find module" error this realm made -> the request
  let compartment = null;
  let evaluateOptions = null;

  const builtins = createBuiltins({ root, compartment: () => compartment || (compartment = makeCompartment()), load: (n) => studentRequire(n, root), attempt: o.attempt || (() => {}) });

  function builtin(name) {
    if (builtinCache.has(name)) return builtinCache.get(name);
    const mod = builtins.build(name);
    builtinCache.set(name, mod);
    return mod;
  }

  function processFacade() {
    const M = builtins.membrane;
    const { env, arm } = envFacade(o.attempt || (() => {}));
    const Err = () => compartment.globalThis.Error;
    const out = {
      env, argv: P.ObjectFreeze(['node', path.join(root, 'solution.js')]), argv0: 'node', execArgv: P.ObjectFreeze([]),
      platform: process.platform, arch: process.arch, version: process.version, versions: P.ObjectFreeze({ ...process.versions }),
      pid: process.pid, ppid: process.ppid, execPath: process.execPath, release: P.ObjectFreeze({ name: 'node' }),
      exit: o.refuseExit,
      cwd: () => process.cwd(), uptime: () => process.uptime(), memoryUsage: () => M.toRealm(process.memoryUsage()),
      cpuUsage: (p) => M.toRealm(process.cpuUsage(M.toHost(p, true))),
      hrtime: Object.assign((t) => M.toRealm(process.hrtime(M.toHost(t, true))), { bigint: () => process.hrtime.bigint() }),
      nextTick: (fn, ...args) => {
        if (typeof fn !== 'function') throw new (compartment.globalThis.TypeError)('The "callback" argument must be of type function');
        process.nextTick(() => P.ReflectApply(fn, undefined, args));
      },
      // Printed here, never through Node's process.emitWarning (its 'warning' event runs on the real process).
      emitWarning: (w, type) => {
        P.writeSync(2, '(node:' + process.pid + ') ' + (typeof type === 'string' ? type : 'Warning') + ': ' + (typeof w === 'string' ? w : '[warning]') + '\n');
      },
      kill: (pid, sig) => {
        (o.attempt || (() => {}))('signal', 'process.kill(' + P.String(pid) + ', ' + P.String(sig === undefined ? 'SIGTERM' : sig) + ')');
        const e = new (Err())('kill EPERM');
        e.code = 'EPERM';
        e.syscall = 'kill';
        throw e;
      },
      getuid: () => process.getuid(), getgid: () => process.getgid(), geteuid: () => process.geteuid(), getegid: () => process.getegid(),
      getBuiltinModule: (name) => studentRequire(name, root),
      stdout: { write: (chunk, ...rest) => process.stdout.write(M.toHost(chunk, true), ...rest.filter((x) => typeof x === 'string')) },
      stderr: { write: (chunk, ...rest) => process.stderr.write(M.toHost(chunk, true), ...rest.filter((x) => typeof x === 'string')) },
    };
    // Listeners on the real process would see the harness's own events; the submission's are accepted and never called.
    for (const name of ['on', 'once', 'off', 'addListener', 'removeListener', 'removeAllListeners', 'prependListener']) out[name] = () => facade;
    out.listeners = () => [];
    P.ObjectDefineProperty(out.stdout, 'isTTY', { value: false, enumerable: true });
    P.ObjectDefineProperty(out, 'exitCode', { get: () => undefined, set: () => {}, enumerable: true });
    const facade = harden(out);
    arm();
    return facade;
  }

  /**
   * console for the submission: Node formats its arguments without ever calling their custom inspect method (which
   * Node would hand its own options object and `inspect`); a test's jest.spyOn(console, …) still sees each call.
   */
  function consoleFacade() {
    const names = ['log', 'error', 'warn', 'info', 'debug', 'trace', 'dir', 'table', 'time', 'timeEnd', 'timeLog', 'group', 'groupEnd', 'groupCollapsed', 'assert', 'count', 'countReset'];
    const out = {};
    for (const name of names) {
      const original = console[name];
      out[name] = function (...args) {
        const now = console[name];
        if (now !== original) return void P.ReflectApply(now, console, args); // a test's spy: test code, as in Jest
        const text = [];
        for (const a of args) P.ArrayPush(text, typeof a === 'string' ? a : nodeUtil.inspect(a, { customInspect: false }));
        P.ReflectApply(original, console, name === 'assert' || name === 'table' || name === 'dir' ? args.map((a) => (typeof a === 'object' && a !== null ? P.String(text[0]) : a)) : text);
      };
    }
    return harden(out);
  }

  function makeCompartment() {
    hardenShared();
    const M = builtins.membrane;
    let urlMod = null;
    const url = () => urlMod || (urlMod = builtin('url'));
    const endowments = {
      console: consoleFacade(), process: processFacade(),
      Date, Math, Intl, WeakRef, FinalizationRegistry,
      // ses leaves the float typed arrays out of a Compartment's globals (a NaN's bits could leak nondeterminism); they
      // are intrinsics lockdown() froze, like Uint8Array, and honest code uses them (issue 30: `new Float64Array` threw).
      Float32Array, Float64Array,
      structuredClone: (v, opts) => M.toRealm(structuredClone(M.toHost(v, true), M.toHost(opts, true))),
      atob: (s) => atob(M.toHost(s, true)), btoa: (s) => btoa(M.toHost(s, true)),
      queueMicrotask: (fn) => {
        if (typeof fn !== 'function') throw new (compartment.globalThis.TypeError)('The "callback" argument must be of type function');
        queueMicrotask(() => P.ReflectApply(fn, undefined, []));
      },
      fetch: (...args) => {
        (o.attempt || (() => {}))('network', 'fetch(' + (typeof args[0] === 'string' ? JSON.stringify(args[0].slice(0, 200)) : 'object') + ')');
        return P.OrigPromise.reject(new (compartment.globalThis.TypeError)('fetch failed: no network inside the grading sandbox'));
      },
      performance: { now: () => performance.now(), timeOrigin: performance.timeOrigin },
      crypto: {
        randomUUID: () => crypto.randomUUID(),
        getRandomValues: (a) => {
          M.callable(crypto.getRandomValues, crypto)(a);
          return a;
        },
      },
      AbortController: M.facadeClass(AbortController), AbortSignal: M.facadeClass(AbortSignal), Event: M.facadeClass(Event), EventTarget: M.facadeClass(EventTarget),
      TextEncoder: M.facadeClass(TextEncoder), TextDecoder: M.facadeClass(TextDecoder),
      ...builtins.timers(),
    };
    for (const [name, fn] of Object.entries(o.testGlobals)) endowments[name] = fn;
    const c = new Compartment({ globals: harden(endowments), __options__: true });
    compartment = c;
    // `expect` and `jest` are the tests' own: the submission sees neither; assigning them is reported as before.
    for (const name of ['expect', 'jest', 'vi']) {
      P.ObjectDefineProperty(c.globalThis, name, { get: harden(() => undefined), set: harden(() => o.tamper('tampering.globals', 'assignment to global ' + name)), configurable: false });
    }
    // Evaluated in the Compartment on first use (most submissions never touch them).
    const lazy = { Buffer: () => builtin('buffer').Buffer, URL: () => url().URL, URLSearchParams: () => url().URLSearchParams };
    for (const [name, get] of Object.entries(lazy)) P.ObjectDefineProperty(c.globalThis, name, { get: harden(get), enumerable: false, configurable: false });
    c.globalThis.global = c.globalThis;
    evaluateOptions = harden({ __evadeImportExpressionTest__: true, __evadeHtmlCommentTest__: true, __rejectSomeDirectEvalExpressions__: false });
    return c;
  }

  function resolveFile(abs) {
    for (const ext of ENTRY_EXTENSIONS) if (isFile(abs + ext)) return abs + ext;
    return null;
  }

  function notFound(request) {
    const e = new P.Error("Cannot find module '" + request + "'");
    e.code = 'MODULE_NOT_FOUND';
    missing.set(e, request);
    return e;
  }

  function studentRequire(request, fromDir) {
    if (typeof request !== 'string') throw new TypeError('The "id" argument must be of type string');
    if (request.startsWith('./') || request.startsWith('../') || request.startsWith('/') || request === '.' || request === '..') {
      const abs = resolveFile(path.resolve(fromDir, request));
      if (!abs || !(abs === root || abs.startsWith(root + '/'))) throw notFound(request);
      return load(abs);
    }
    const name = request.startsWith('node:') ? request.slice(5) : request;
    if (REFUSED.has(name)) {
      o.onBlocked(request);
      throw new P.Error('Cannot load "' + request + '": not available inside the grading sandbox');
    }
    if (allowed.has(name)) return builtin(name);
    if (name === 'process') {
      if (!compartment) compartment = makeCompartment();
      return compartment.globalThis.process;
    }
    if (require('node:module').isBuiltin(request)) {
      throw new P.Error('Cannot load "' + request + '": this built-in module is not available to submissions inside the grading sandbox');
    }
    throw notFound(request);
  }

  // The ES-module helpers a rewritten module calls, as closures of the submission's own: the functions themselves are
  // also the hidden tests' (loaders.cjs puts them on the start realm's global object), and nothing the tests hold may
  // be handed to the submission (the walk inside a graded job, tests/integration/realm-walk.test.ts, found these).
  const esmHelpers = harden([(m) => interopDefault(m), (m) => namespace(m), (exports, m) => star(exports, m)]);

  function makeRequire(dir) {
    const req = (request) => studentRequire(request, dir);
    req.resolve = (request) => {
      const abs = resolveFile(path.resolve(dir, request));
      if (!abs) throw notFound(request);
      return abs;
    };
    req.cache = {};
    return harden(req);
  }

  /** The submission's module at `abs` (resolved), evaluated once in the Compartment. */
  function load(abs) {
    if (cache.has(abs)) return cache.get(abs).exports;
    if (!compartment) compartment = makeCompartment();
    const source = P.readFileSync(abs, 'utf8');
    const format = formatOf(abs, source);
    const mod = { id: abs, filename: abs, path: path.dirname(abs), exports: {}, loaded: false, children: [], paths: [] };
    cache.set(abs, mod);
    let esm = null;
    try {
      if (format === 'json') {
        mod.exports = compiled(abs, source, () => P.JSONParse(source));
      } else {
        const script = source.startsWith('#!') ? '//' + source.slice(2) : source;
        esm = format === 'module' ? compiled(abs, source, () => esmToCjs(source)) : null;
        const body = esm ? esm.code : rewriteScriptImports(script);
        // Top-level await: the body runs as an async function; importers wait for it (see loadAsync).
        const opening = (esm && esm.async ? '(async function (exports,' : '(function (exports,') + ' require, module, __filename, __dirname, __evigrade_default, __evigrade_namespace, __evigrade_star, __evigrade_import, __evigrade_meta) {';
        const wrapper = opening + body + '\n})\n//# sourceURL=' + abs + '\n';
        const fn = compiled(abs, script, () => compartment.evaluate(wrapper, evaluateOptions));
        if (o.onEvaluated) o.onEvaluated(abs, wrapper, opening.length + (esm ? esm.prelude : 0));
        const req = makeRequire(path.dirname(abs));
        mod.require = req;
        const meta = harden({ url: pathToFileURL(abs).href, filename: abs, dirname: path.dirname(abs) });
        const dynImport = harden((spec) => new Promise((resolve) => resolve(namespace(studentRequire(spec, path.dirname(abs))))));
        const ran = P.ReflectApply(fn, format === 'module' ? undefined : mod.exports, [mod.exports, req, mod, abs, path.dirname(abs), ...esmHelpers, dynImport, meta]);
        if (esm && esm.async) {
          mod.pending = P.PromiseThen(ran, () => {
            mod.loaded = true;
            mod.pending = null;
            return mod.exports;
          }, (e) => {
            cache.delete(abs);
            throw e;
          });
          return mod.exports;
        }
      }
      mod.loaded = true;
      return mod.exports;
    } catch (e) {
      cache.delete(abs);
      // An import of a module that does not exist: the line of that import (its require runs hoisted, on line 1).
      const request = missing.get(e);
      if (request !== undefined && esm && Object.hasOwn(esm.importLines, request) && !placed.has(e)) placed.set(e, { abs, line: esm.importLines[request] });
      throw e;
    }
  }

  /** Runs a parse of the file at `abs`; a failure is remembered as that file's syntax error, then thrown on. */
  function compiled(abs, source, parse) {
    try {
      return parse();
    } catch (e) {
      if (e !== null && (typeof e === 'object' || typeof e === 'function') && !placed.has(e)) {
        const loc = e.evigradeLoc;
        placed.set(e, { abs, line: loc && typeof loc.line === 'number' ? loc.line : abs.endsWith('.json') ? null : scriptSyntaxLine(source) });
      }
      throw e;
    }
  }

  /** Like load, but waits for a module with top-level await to finish (as an ESM import would). */
  async function loadAsync(abs) {
    const exports = load(abs);
    const mod = cache.get(abs);
    return mod && mod.pending ? mod.pending : exports;
  }

  return {
    load, loadAsync, resolveFile, studentRequire,
    compartment: () => compartment || (compartment = makeCompartment()),
    placeOf: (e) => placed.get(e) || null,
  };
}

function interopDefault(m) {
  return m && m.__esModule ? m.default : m;
}
function namespace(m) {
  if (m && m.__esModule) return m;
  const ns = { default: m };
  if (m && (typeof m === 'object' || typeof m === 'function')) {
    for (const k of P.ObjectKeys(m)) if (k !== 'default') ns[k] = m[k];
  }
  return ns;
}
function star(exports, m) {
  if (!m || (typeof m !== 'object' && typeof m !== 'function')) return;
  for (const k of P.ObjectKeys(m)) {
    if (k === 'default' || k === '__esModule' || Object.prototype.hasOwnProperty.call(exports, k)) continue;
    P.ObjectDefineProperty(exports, k, { enumerable: true, get: () => m[k] });
  }
}

module.exports = { frozenGlobals: () => frozenGlobals, freezeGlobalBindings, lockdownNow, hardenShared, hideTestSources, createStudentRealm, formatOf, interopDefault, namespace, star, PURE, HOST };
