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

/**
 * The host objects every Compartment is endowed with, and the interop helpers its modules call: hardened once per
 * process, in the start-up snapshot's builder when there is one (hardening what is already frozen costs nothing).
 */
function hardenShared() {
  harden([interopDefault, namespace, star]);
  for (const x of [Buffer, URL, URLSearchParams, AbortController, AbortSignal, Intl, WeakRef, FinalizationRegistry, structuredClone, atob, btoa, queueMicrotask]) harden(x);
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

/** A frozen object of functions that call `get()[name]` at call time (so a test's jest.spyOn on the host object sees student calls). */
function forwarder(get, names) {
  const out = {};
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    out[name] = function (...args) {
      return P.ReflectApply(get()[name], get(), args);
    };
  }
  return out;
}

function frozenCopy(mod) {
  const out = {};
  const keys = P.ObjectKeys(mod);
  for (let i = 0; i < keys.length; i++) {
    const d = P.ObjectGetOwnPropertyDescriptor(mod, keys[i]);
    // Lazy getters (fs.promises...) are read once here, never handed over.
    out[keys[i]] = d.get ? mod[keys[i]] : d.value;
  }
  return P.ObjectFreeze(out);
}

/**
 * @param {object} o
 * @param {string} o.root        the submission's folder
 * @param {(code: string, detail: string) => void} o.tamper
 * @param {(what: string) => void} o.onBlocked
 * @param {() => never} o.refuseExit  process.exit as the submission sees it
 * @param {Record<string, Function>} o.testGlobals  describe/test/... for the submission: each refuses and reports
 * @param {string[]} [o.extraBuiltins]  further host modules a rubric allows
 */
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

  function builtin(name) {
    if (builtinCache.has(name)) return builtinCache.get(name);
    let mod;
    if (name === 'util') {
      const util = require('node:util');
      mod = harden({
        format: util.format, formatWithOptions: util.formatWithOptions, inspect: util.inspect, isDeepStrictEqual: util.isDeepStrictEqual,
        promisify: util.promisify, callbackify: util.callbackify, inherits: util.inherits, deprecate: util.deprecate,
        types: util.types, TextEncoder: util.TextEncoder, TextDecoder: util.TextDecoder, stripVTControlCharacters: util.stripVTControlCharacters,
      });
    } else if (name === 'buffer') {
      const b = require('node:buffer');
      mod = harden({ Buffer: b.Buffer, constants: b.constants, kMaxLength: b.kMaxLength, atob: b.atob, btoa: b.btoa });
    } else if (name === 'url') {
      const u = require('node:url');
      mod = harden({ URL: u.URL, URLSearchParams: u.URLSearchParams, fileURLToPath: u.fileURLToPath, pathToFileURL: u.pathToFileURL, format: u.format, parse: u.parse, resolve: u.resolve });
    } else if (name === 'timers') {
      mod = harden({ ...timerEndowments() });
    } else if (PURE.includes(name)) {
      mod = harden(require('node:' + name));
    } else {
      mod = frozenCopy(require('node:' + name));
    }
    builtinCache.set(name, mod);
    return mod;
  }

  function timerEndowments() {
    const t = (name) => function (...args) {
      return P.ReflectApply(globalThis[name], globalThis, args);
    };
    return {
      setTimeout: t('setTimeout'), clearTimeout: t('clearTimeout'), setInterval: t('setInterval'), clearInterval: t('clearInterval'),
      setImmediate: t('setImmediate'), clearImmediate: t('clearImmediate'),
    };
  }

  function processFacade() {
    const env = P.ObjectFreeze({ ...process.env });
    const out = {
      env, argv: P.ObjectFreeze(['node', path.join(root, 'solution.js')]), argv0: 'node', execArgv: P.ObjectFreeze([]),
      platform: process.platform, arch: process.arch, version: process.version, versions: P.ObjectFreeze({ ...process.versions }),
      pid: process.pid, ppid: process.ppid, execPath: process.execPath, release: P.ObjectFreeze({ name: 'node' }),
      exit: o.refuseExit,
      cwd: () => process.cwd(), uptime: () => process.uptime(), memoryUsage: () => process.memoryUsage(), cpuUsage: (p) => process.cpuUsage(p),
      hrtime: harden(Object.assign((t) => process.hrtime(t), { bigint: () => process.hrtime.bigint() })),
      nextTick: (fn, ...args) => process.nextTick(fn, ...args),
      emitWarning: (...args) => P.ReflectApply(process.emitWarning, process, args),
      kill: (pid, sig) => process.kill(pid, sig),
      getuid: () => process.getuid(), getgid: () => process.getgid(), geteuid: () => process.geteuid(), getegid: () => process.getegid(),
      getBuiltinModule: (name) => studentRequire(name, root),
      stdout: forwarder(() => process.stdout, ['write']),
      stderr: forwarder(() => process.stderr, ['write']),
    };
    // Listeners on the real process would see the harness's own events; the submission's are accepted and never called.
    for (const name of ['on', 'once', 'off', 'addListener', 'removeListener', 'removeAllListeners', 'prependListener']) out[name] = () => facade;
    out.listeners = () => [];
    P.ObjectDefineProperty(out.stdout, 'isTTY', { value: false, enumerable: true });
    P.ObjectDefineProperty(out, 'exitCode', { get: () => undefined, set: () => {}, enumerable: true });
    const facade = harden(out);
    return facade;
  }

  function makeCompartment() {
    hardenShared();
    harden(Object.getPrototypeOf(P.setTimeout(() => {}, 0)));
    harden(Object.getPrototypeOf(P.setImmediate(() => {})));
    const consoleFacade = harden(forwarder(() => console, ['log', 'error', 'warn', 'info', 'debug', 'trace', 'dir', 'table', 'time', 'timeEnd', 'timeLog', 'group', 'groupEnd', 'groupCollapsed', 'assert', 'count', 'countReset']));
    const endowments = {
      console: consoleFacade, process: processFacade(), Buffer, URL, URLSearchParams, AbortController, AbortSignal,
      Date, Math, Intl, WeakRef, FinalizationRegistry, structuredClone, atob, btoa, queueMicrotask,
      fetch: harden((...args) => P.ReflectApply(fetch, undefined, args)),
      performance: harden({ now: () => performance.now(), timeOrigin: performance.timeOrigin }),
      crypto: harden({ randomUUID: () => crypto.randomUUID(), getRandomValues: (a) => crypto.getRandomValues(a) }),
      ...timerEndowments(),
    };
    for (const [name, fn] of Object.entries(o.testGlobals)) endowments[name] = fn;
    const c = new Compartment({ globals: harden(endowments), __options__: true });
    // `expect` and `jest` are the tests' own: the submission sees neither; assigning them is reported as before.
    for (const name of ['expect', 'jest', 'vi']) {
      P.ObjectDefineProperty(c.globalThis, name, { get: () => undefined, set: () => o.tamper('tampering.globals', 'assignment to global ' + name), configurable: false });
    }
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
        const wrapper = (esm && esm.async ? '(async function (exports,' : '(function (exports,') + ' require, module, __filename, __dirname, __evigrade_default, __evigrade_namespace, __evigrade_star, __evigrade_import, __evigrade_meta) {' +
          body + '\n})\n//# sourceURL=' + abs + '\n';
        const fn = compiled(abs, script, () => compartment.evaluate(wrapper, evaluateOptions));
        const req = makeRequire(path.dirname(abs));
        mod.require = req;
        const meta = harden({ url: pathToFileURL(abs).href, filename: abs, dirname: path.dirname(abs) });
        const dynImport = harden((spec) => new Promise((resolve) => resolve(namespace(studentRequire(spec, path.dirname(abs))))));
        const ran = P.ReflectApply(fn, format === 'module' ? undefined : mod.exports, [mod.exports, req, mod, abs, path.dirname(abs), interopDefault, namespace, star, dynImport, meta]);
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

  return { load, loadAsync, resolveFile, studentRequire, placeOf: (e) => placed.get(e) || null };
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

module.exports = { lockdownNow, hardenShared, hideTestSources, createStudentRealm, formatOf, interopDefault, namespace, star, PURE, HOST };
