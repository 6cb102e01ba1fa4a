'use strict';
// Loading test files and the submission's entry. ESM tests are served from
// memory by hooks.mjs; CommonJS tests are compiled here from memory. The entry
// is loaded first, while test registration is closed, so anything the
// submission does at import time cannot add or reorder tests.
const P = require('./primordials.cjs');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const importer = globalThis[Symbol.for('evigrade.import')] || ((url) => import(url));

const ESM_SYNTAX = /^\s*(import\s*[\w*{'"$]|export\s+(?:default|const|let|var|function|class|async|\{|\*))/m;
const BLOCKED = new Set(['inspector', 'node:inspector', 'inspector/promises', 'node:inspector/promises']);
const FRAMEWORK_CJS = new Set(['@jest/globals', 'vitest']);

function formatOf(name, source) {
  if (name.endsWith('.mjs')) return 'module';
  if (name.endsWith('.cjs')) return 'commonjs';
  return ESM_SYNTAX.test(source.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '')) ? 'module' : 'commonjs';
}

const ENTRY_EXTENSIONS = ['', '.js', '.mjs', '.cjs', '/index.js', '/index.mjs', '/index.cjs'];
function resolveEntry(abs) {
  for (const ext of ENTRY_EXTENSIONS) {
    try {
      if (fs.statSync(abs + ext).isFile()) return abs + ext;
    } catch {
      // try the next candidate
    }
  }
  return abs;
}

// An ESM import of a relative path without an extension, which only the hooks resolve.
const EXTENSIONLESS_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)['"]\.{1,2}\/(?:[^'"]*\/)?[^'"./]+['"]/m;

function studentNeedsHooks(root) {
  const stack = [root];
  let seen = 0;
  while (stack.length > 0 && seen < 512) {
    const dir = stack.pop();
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      seen++;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (/\.(m?js)$/.test(e.name)) {
        try {
          if (EXTENSIONLESS_IMPORT.test(fs.readFileSync(p, 'utf8'))) return true;
        } catch {
          // unreadable: nothing to resolve
        }
      }
    }
  }
  return false;
}

function stubProxy() {
  const h = { get: (t, k) => (k === 'then' || k === '__esModule' ? undefined : s), apply: () => undefined, construct: () => ({}) };
  const s = new Proxy(function stub() {}, h);
  return s;
}

function createLoaders({ payload, Module, jestApi, nodeTestApi, onBlocked }) {
  const root = payload.root;
  const rootUrl = pathToFileURL(root + '/').href;
  const files = payload.tests.map((t) => ({ ...t, abs: path.join(root, t.name), format: formatOf(t.name, t.source) }));
  const virtual = {};
  for (const f of files) if (f.format === 'module') virtual[pathToFileURL(f.abs).href] = { source: f.source, format: 'module' };
  const byAbs = new Map(files.map((f) => [f.abs, f]));

  // Loader hooks cost a thread; CommonJS-only jobs do without them.
  if (files.some((f) => f.format === 'module') || studentNeedsHooks(root)) {
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
    if (request === 'node:test') return nodeTestApi;
    if ((request.startsWith('./') || request.startsWith('../')) && parent && parent.filename) {
      const abs = path.resolve(path.dirname(parent.filename), request);
      const v = virtualCjs(abs);
      if (v) return compileCjs(v);
      if (payload.mode === 'collect' && byAbs.has(parent.filename)) return stubProxy();
    }
    return P.ReflectApply(origLoad, this, [request, parent, isMain]);
  };

  async function loadTestFile(t) {
    const f = byAbs.get(path.join(root, t.name));
    try {
      if (f.format === 'module') await importer(pathToFileURL(f.abs).href);
      else compileCjs(f);
      return null;
    } catch (e) {
      return e instanceof Error ? e : new P.Error(P.String(e));
    }
  }

  /** Loads the entry the way the first test file would, before tests register. */
  async function preloadEntry() {
    if (!payload.entry) return null;
    const abs = resolveEntry(path.resolve(root, payload.entry));
    try {
      const first = files[0];
      if (first && first.format === 'module') {
        const url = pathToFileURL(abs).href;
        await importer(url);
      } else {
        require(abs);
      }
      return null;
    } catch (e) {
      const err = e instanceof Error ? e : new P.Error(P.String(e));
      err.message = 'The submission failed to load: ' + err.message;
      return err;
    }
  }

  return { loadTestFile, preloadEntry };
}

module.exports = { createLoaders, formatOf };
