'use strict';
// Loading test files and the submission's entry. Test files are compiled here
// from memory, trusted, in the start realm: CommonJS as they are, ES modules
// rewritten to CommonJS first, as Babel does for Jest (esm-to-cjs.cjs), which
// spares Node's ESM loader and its hooks thread (≈ 60 ms a job). An ES-module
// test with top-level await is served from memory by hooks.mjs instead. Every file of the submission is
// evaluated in the student Compartment (realm.cjs), whether a CommonJS test
// requires it or an ESM test imports it (hooks.mjs then serves a shim that asks
// the realm). The entry is loaded first, while test registration is closed, so
// anything the submission does at import time cannot add or reorder tests.
const P = require('./primordials.cjs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { testAsCommonJs, testFormatOf } = require('./esm-to-cjs.cjs');
const { createChains } = require('./chains.cjs');
const { interopDefault, namespace, star } = require('./realm.cjs');
const HostBufferModule = require('node:buffer');

const BLOCKED = new Set(['inspector', 'node:inspector', 'inspector/promises', 'node:inspector/promises']);
const FRAMEWORK_CJS = new Set(['@jest/globals', 'vitest']);
const ASSERT = new Set(['assert', 'node:assert', 'assert/strict', 'node:assert/strict']);
const BUFFER = new Set(['buffer', 'node:buffer']);

function stubProxy() {
  const h = { get: (t, k) => (k === 'then' || k === '__esModule' ? undefined : s), apply: () => undefined, construct: () => ({}) };
  const s = new Proxy(function stub() {}, h);
  return s;
}

/**
 * The tests' `Buffer` (the global, and `Buffer`/`SlowBuffer` of `require('buffer')`) is the submission's: the realm's
 * own class (issue 30), so a Buffer either side makes is of one class to the other — `instanceof`, `Buffer.isBuffer`,
 * `.equals`, toStrictEqual — as under Node, where there is one. Evaluated in the realm on first use only.
 * Returns the tests' `buffer` module.
 */
function shareRealmBuffer(realm, root) {
  const mod = () => realm.studentRequire('buffer', root);
  P.ObjectDefineProperty(globalThis, 'Buffer', {
    get() {
      const B = mod().Buffer;
      P.ObjectDefineProperty(globalThis, 'Buffer', { value: B, writable: true, enumerable: false, configurable: true });
      return B;
    },
    set(v) {
      P.ObjectDefineProperty(globalThis, 'Buffer', { value: v, writable: true, enumerable: false, configurable: true });
    },
    enumerable: false,
    configurable: true,
  });
  let testModule = null;
  return () => (testModule = testModule || P.ObjectFreeze({ ...HostBufferModule, Buffer: mod().Buffer, SlowBuffer: mod().SlowBuffer }));
}

function createLoaders({ payload, Module, jestApi, nodeTestApi, onBlocked, realm, tamper, guard }) {
  // Read per job: boot.cjs (or the snapshot's start) defines it before the harness runs.
  const importer = globalThis[Symbol.for('evigrade.import')] || ((url) => import(url));
  const root = payload.root;
  const rootUrl = pathToFileURL(root + '/').href;
  // Start-realm globals the rewritten ES-module tests read (the submission's realm has a global object of its own).
  P.ObjectDefineProperty(globalThis, ESM_HELPERS, { value: esmHelpers(nodeTestApi, createChains(tamper)) });
  const files = payload.tests.map((t) => asCommonJs({ ...t, abs: path.join(root, t.name), format: testFormatOf(t.name, t.source) }));
  const virtual = {};
  for (const f of files) if (f.format === 'module') virtual[pathToFileURL(f.abs).href] = { source: f.source, format: 'module' };
  const byAbs = new Map(files.map((f) => [f.abs, f]));
  const testBuffer = shareRealmBuffer(realm, root);

  // ESM tests import the submission through this function (see hooks.mjs); only the realm evaluates student files.
  P.ObjectDefineProperty(globalThis, Symbol.for('evigrade.student'), { value: (abs) => realm.loadAsync(abs) });
  // Loader hooks cost a thread; CommonJS-only jobs do without them.
  if (files.some((f) => f.format === 'module')) {
    Module.register(pathToFileURL(path.join(__dirname, 'hooks.mjs')).href, {
      data: { virtual, mode: payload.mode, stubNames: payload.stubNames || [], rootUrl },
    });
  }
  // Hooks registered after ours would run first and could rewrite what tests import.
  P.ObjectDefineProperty(Module, 'register', { value: () => { throw new P.Error('module.register is not available inside the grading sandbox'); }, writable: false, configurable: false });

  const cjsCache = new Map();
  const origLoad = Module._load;
  function virtualCjs(abs) {
    for (const cand of [abs, abs + '.js', abs + '.cjs']) {
      const f = byAbs.get(cand);
      if (f && f.format === 'commonjs') return f;
    }
    return null;
  }
  function compileCjs(f) {
    if (cjsCache.has(f.abs)) return cjsCache.get(f.abs).exports;
    const m = new Module(f.abs, null);
    m.filename = f.abs;
    m.paths = Module._nodeModulePaths(path.dirname(f.abs));
    cjsCache.set(f.abs, m);
    m._compile(f.source, f.abs);
    m.loaded = true;
    return m.exports;
  }
  Module._load = function _load(request, parent, isMain) {
    if (BLOCKED.has(request)) {
      onBlocked(request);
      throw new P.Error('Cannot load "' + request + '": not available inside the grading sandbox');
    }
    if (FRAMEWORK_CJS.has(request)) return jestApi;
    if (ASSERT.has(request)) return testAssert(request.endsWith('strict'));
    if (BUFFER.has(request)) return testBuffer();
    if (request === 'node:test') return nodeTestApi;
    if ((request.startsWith('./') || request.startsWith('../')) && parent && parent.filename) {
      const abs = path.resolve(path.dirname(parent.filename), request);
      const v = virtualCjs(abs);
      if (v) return compileCjs(v);
      if (payload.mode === 'collect' && byAbs.has(parent.filename)) return stubProxy();
      const student = realm.resolveFile(abs);
      if (student && student.startsWith(root + '/')) return realm.load(student);
    }
    return P.ReflectApply(origLoad, this, [request, parent, isMain]);
  };

  // The tests' node:assert records a failed assertion even if the code under test catches it (guard.cjs).
  let recorded = null;
  const testAssert = (strict) => {
    recorded = recorded || guard.recordingAssert(P.ReflectApply(origLoad, Module, ['node:assert', null, false]));
    return strict ? recorded.strict : recorded;
  };

  async function loadTestFile(t) {
    const f = byAbs.get(path.join(root, t.name));
    try {
      if (f.format === 'module') await importer(pathToFileURL(f.abs).href);
      else {
        // As an ES module's imports would: the submission's modules it imports have finished (top-level await) first.
        if (payload.mode === 'run') {
          for (const spec of f.imports || []) {
            if (!spec.startsWith('./') && !spec.startsWith('../')) continue;
            const abs = path.resolve(path.dirname(f.abs), spec);
            if (virtualCjs(abs)) continue;
            const student = realm.resolveFile(abs);
            if (student && student.startsWith(root + '/')) await realm.loadAsync(student);
          }
        }
        compileCjs(f);
      }
      return null;
    } catch (e) {
      return e instanceof Error ? e : new P.Error(P.String(e));
    }
  }

  /**
   * Loads the entry the way the first test file would, before tests register. A failure is the student's error:
   * `error` fails every test file, `where` says once what failed and where in the submission's own files.
   */
  async function preloadEntry() {
    if (!payload.entry) return null;
    try {
      const abs = realm.resolveFile(path.resolve(root, payload.entry));
      if (!abs) throw new P.Error("Cannot find module '" + path.resolve(root, payload.entry) + "'");
      await realm.loadAsync(abs);
      return null;
    } catch (e) {
      const thrown = describeThrown(e);
      return { error: loadFailure(thrown), where: whereItFailed(e, thrown) };
    }
  }

  /** The file and line of the submission where loading failed: a file that does not parse, else the innermost frame. */
  function whereItFailed(e, thrown) {
    const text = thrown.name + ': ' + thrown.message;
    const placed = realm.placeOf(e);
    if (placed) return { file: path.relative(root, placed.abs), line: placed.line, message: text };
    const frame = new RegExp('(?:file://)?' + root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '/([^\\s:()\'"]+):(\\d+):\\d+').exec(thrown.stack);
    return { file: frame ? frame[1] : null, line: frame ? Number(frame[2]) : null, message: text };
  }

  /**
   * After the submission loaded: the names the tests import from its modules that they do not export (a misnamed
   * or missing export), said once as the student's error; the tests still run and fail as they would.
   */
  function missingExports() {
    for (const f of byAbs.values()) {
      for (const [spec, name] of f.named || []) {
        if (!spec.startsWith('./') && !spec.startsWith('../')) continue;
        const abs = realm.resolveFile(path.resolve(path.dirname(f.abs), spec));
        if (!abs || !abs.startsWith(root + '/')) continue;
        const has = exportsOf(abs, name);
        if (has && !has.found) {
          const own = has.keys.filter((k) => k !== '__esModule' && k !== 'default');
          return { file: path.relative(root, abs), line: null, message: 'the tests import ' + name + ', which this file does not export (' + (own.length ? 'it exports ' + own.join(', ') : 'it exports no name') + ')' };
        }
      }
    }
    return null;
  }

  /** Whether the module's exports have `name` as the tests read it (`exports[name]`), and its enumerable names. */
  function exportsOf(abs, name) {
    try {
      const exports = realm.load(abs);
      if (exports === null || (typeof exports !== 'object' && typeof exports !== 'function')) return null;
      const keys = [];
      for (const k in exports) P.ArrayPush(keys, k);
      return { found: name in exports, keys };
    } catch {
      return null;
    }
  }

  return { loadTestFile, preloadEntry, missingExports };
}

/**
 * An ES-module test file as CommonJS (Babel's interop: `default` is `module.exports` unless `__esModule`), strict,
 * every line where it was: the rewrite the grader sent (`cjs`, from the same esm-to-cjs.cjs) or made here. A syntax
 * error or top-level await leaves it an ES module for Node's loader to report/run.
 */
function asCommonJs(f) {
  const made = f.cjs === undefined ? testAsCommonJs(f.name, f.source) : f.cjs;
  if (!made) return f;
  return { ...f, source: made.script ? withScriptHead(made.code) : MODULE_HEAD + made.code, format: 'commonjs', imports: made.imports, named: made.named };
}
/** After a CommonJS test's `"use strict"` (so it stays the directive it was) and in place of a hashbang. */
function withScriptHead(code) {
  const body = code.startsWith('#!') ? '//' + code.slice(2) : code;
  const directive = /^\s*(['"])use strict\1;?/.exec(body);
  const at = directive ? directive[0].length : 0;
  return body.slice(0, at) + SCRIPT_HEAD + body.slice(at);
}
// On the file's first line, so every line stays where it was. A CommonJS test keeps its own (sloppy or strict) mode.
const HELPERS = 'globalThis[Symbol.for("evigrade.esm-helpers")]';
const MODULE_HEAD = '"use strict";const { d: __evigrade_default, n: __evigrade_namespace, s: __evigrade_star, i: __evigrade_importer, m: __evigrade_metaOf, t: __evigrade_then } = ' + HELPERS + ';' +
  'const __evigrade_import = __evigrade_importer(require), __evigrade_meta = __evigrade_metaOf(__filename);';
const SCRIPT_HEAD = 'const { t: __evigrade_then } = ' + HELPERS + ';';

const ESM_HELPERS = Symbol.for('evigrade.esm-helpers');
function esmHelpers(nodeTestApi, chain) {
  return P.ObjectFreeze({
    t: chain,
    // `import test from 'node:test'` is the test function, as Node's own module.exports is.
    d: (m) => (m === nodeTestApi ? m.default : interopDefault(m)),
    n: namespace,
    s: star,
    i: (req) => (spec) => new Promise((resolve) => resolve(namespace(req(spec)))),
    m: (file) => P.ObjectFreeze({ url: pathToFileURL(file).href, filename: file, dirname: path.dirname(file) }),
  });
}

/** What the entry's load threw, read without writing to (or trusting) the thrown value. */
function describeThrown(e) {
  let name = 'Error';
  let message;
  try {
    name = e instanceof Error && typeof e.name === 'string' ? e.name : 'Error';
    message = e instanceof Error ? P.String(e.message) : P.String(e);
  } catch {
    message = 'the thrown value could not be described';
  }
  let stack = '';
  try {
    stack = e instanceof Error && typeof e.stack === 'string' ? e.stack : '';
  } catch {
    stack = '';
  }
  return { name, message, stack };
}

/** The entry's load error, as every test file's load error. */
function loadFailure({ name, message, stack }) {
  const err = new P.Error('The submission failed to load: ' + message);
  const nl = stack.indexOf('\n    at ') >= 0 ? stack.indexOf('\n    at ') : stack.indexOf('\n  at ');
  err.stack = name + ': The submission failed to load: ' + message + (nl >= 0 ? stack.slice(nl) : '');
  return err;
}

module.exports = { createLoaders, withScriptHead };
