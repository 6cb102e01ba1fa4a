'use strict';
// ES module source -> the body of a CommonJS-style function, so a student's ESM
// file can be evaluated inside the student Compartment (whose evaluator takes
// scripts, not modules). Only top-level import/export syntax, `import.meta` and
// `import()` are rewritten, in place, keeping every line where it was so stack
// traces point at the student's own lines. Semantics follow Babel's CommonJS
// output (what Jest users get): `exports.__esModule`, hoisted function exports,
// `default` interop; `let`/`var` exports and re-exports stay live (getters).
// acorn is loaded on first use: CommonJS-only submissions never pay for it.
let acornLib = null;
const acorn = { parse: (src, opts) => (acornLib || (acornLib = require('acorn'))).parse(src, opts) };

const blankLines = (text) => text.replace(/[^\n]/g, '');

function patternNames(node, out) {
  if (!node) return out;
  switch (node.type) {
    case 'Identifier': out.push(node.name); break;
    case 'ObjectPattern': for (const p of node.properties) patternNames(p.type === 'RestElement' ? p.argument : p.value, out); break;
    case 'ArrayPattern': for (const e of node.elements) patternNames(e, out); break;
    case 'RestElement': patternNames(node.argument, out); break;
    case 'AssignmentPattern': patternNames(node.left, out); break;
    default: break;
  }
  return out;
}

const nameOf = (n) => (n.type === 'Literal' ? String(n.value) : n.name);

/** Every `import.meta` and `import(...)` anywhere in the tree. */
function findImportForms(node, out) {
  if (!node || typeof node.type !== 'string') return;
  if (node.type === 'MetaProperty' && node.meta.name === 'import') out.push(node);
  if (node.type === 'ImportExpression') out.push(node);
  for (const key in node) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    const v = node[key];
    if (Array.isArray(v)) for (const c of v) findImportForms(c, out);
    else if (v && typeof v === 'object' && typeof v.type === 'string') findImportForms(v, out);
  }
}

const FUNCTION_NODES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
/** True when `await` (or `for await`) appears outside every function: the module body must then run as an async function. */
function hasTopLevelAwait(node) {
  if (!node || typeof node.type !== 'string' || FUNCTION_NODES.has(node.type)) return false;
  if (node.type === 'AwaitExpression' || (node.type === 'ForOfStatement' && node.await)) return true;
  for (const key in node) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    const v = node[key];
    if (Array.isArray(v)) {
      for (const c of v) if (hasTopLevelAwait(c)) return true;
    } else if (v && typeof v === 'object' && typeof v.type === 'string' && hasTopLevelAwait(v)) return true;
  }
  return false;
}

/** Returns { code, async, imports }: `async` when the module uses top-level await; `imports` its module specifiers in order. */
function esmToCjs(source) {
  let ast;
  try {
    ast = acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true });
  } catch (e) {
    const err = new SyntaxError(String(e.message).replace(/ \(\d+:\d+\)$/, ''));
    if (e.loc) err.evigradeLoc = e.loc;
    throw err;
  }
  const edits = []; // [start, end, text]
  const top = []; // statements that run before the body (hoisted imports, function exports)
  const live = []; // [exportedName, getter expression]
  let n = 0;
  const imports = [];
  const named = []; // [specifier, name]: what an importer expects the module to export
  const importLines = {}; // specifier -> the line of its first import (the require itself is hoisted to line 1)
  const req = (spec, at) => {
    imports.push(spec);
    if (!Object.hasOwn(importLines, spec)) importLines[spec] = source.slice(0, at).split('\n').length;
    const id = '__evigrade_m' + n++;
    top.push('const ' + id + ' = require(' + JSON.stringify(spec) + ');');
    return id;
  };
  for (const node of ast.body) {
    if (node.type === 'ImportDeclaration') {
      const m = req(node.source.value, node.start);
      for (const s of node.specifiers) {
        if (s.type === 'ImportDefaultSpecifier') top.push('const ' + s.local.name + ' = __evigrade_default(' + m + ');');
        else if (s.type === 'ImportNamespaceSpecifier') top.push('const ' + s.local.name + ' = __evigrade_namespace(' + m + ');');
        else if (nameOf(s.imported) === 'default') top.push('const ' + s.local.name + ' = __evigrade_default(' + m + ');');
        else {
          named.push([node.source.value, nameOf(s.imported)]);
          top.push('const ' + s.local.name + ' = ' + m + '[' + JSON.stringify(nameOf(s.imported)) + '];');
        }
      }
      edits.push([node.start, node.end, blankLines(source.slice(node.start, node.end))]);
    } else if (node.type === 'ExportNamedDeclaration') {
      if (node.declaration) {
        const d = node.declaration;
        edits.push([node.start, d.start, '']);
        if (d.type === 'FunctionDeclaration') top.push('exports.' + d.id.name + ' = ' + d.id.name + ';');
        else if (d.type === 'ClassDeclaration') edits.push([node.end, node.end, ' exports.' + d.id.name + ' = ' + d.id.name + ';']);
        else if (d.kind === 'const') {
          const names = [];
          for (const decl of d.declarations) patternNames(decl.id, names);
          edits.push([node.end, node.end, names.map((x) => ' exports.' + x + ' = ' + x + ';').join('')]);
        } else {
          for (const decl of d.declarations) for (const x of patternNames(decl.id, [])) live.push([x, x]);
        }
      } else if (node.source) {
        const m = req(node.source.value, node.start);
        for (const s of node.specifiers) {
          const local = nameOf(s.local);
          live.push([nameOf(s.exported), local === 'default' ? '__evigrade_default(' + m + ')' : m + '[' + JSON.stringify(local) + ']']);
        }
        edits.push([node.start, node.end, blankLines(source.slice(node.start, node.end))]);
      } else {
        for (const s of node.specifiers) live.push([nameOf(s.exported), nameOf(s.local)]);
        edits.push([node.start, node.end, blankLines(source.slice(node.start, node.end))]);
      }
    } else if (node.type === 'ExportAllDeclaration') {
      const m = req(node.source.value, node.start);
      if (node.exported) live.push([nameOf(node.exported), '__evigrade_namespace(' + m + ')']);
      else top.push('__evigrade_star(exports, ' + m + ');');
      edits.push([node.start, node.end, blankLines(source.slice(node.start, node.end))]);
    } else if (node.type === 'ExportDefaultDeclaration') {
      const d = node.declaration;
      if ((d.type === 'FunctionDeclaration' || d.type === 'ClassDeclaration') && d.id) {
        edits.push([node.start, d.start, '']);
        if (d.type === 'FunctionDeclaration') top.push('exports.default = ' + d.id.name + ';');
        else edits.push([node.end, node.end, ' exports.default = ' + d.id.name + ';']);
      } else {
        edits.push([node.start, d.start, 'exports.default = ']);
        if (d.type === 'FunctionDeclaration' || d.type === 'ClassDeclaration') edits.push([node.end, node.end, ';']);
      }
    }
  }
  const forms = [];
  findImportForms(ast, forms);
  for (const f of forms) {
    if (f.type === 'MetaProperty') edits.push([f.start, f.end, '__evigrade_meta']);
    else edits.push([f.start, f.source.start, '__evigrade_import(']);
  }
  edits.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  let body = source;
  for (const [s, e, text] of edits) body = body.slice(0, s) + text + body.slice(e);
  if (body.startsWith('#!')) body = '//' + body.slice(2);
  let head = 'Object.defineProperty(exports, "__esModule", { value: true });';
  for (const [name, expr] of live) {
    head += 'Object.defineProperty(exports, ' + JSON.stringify(name) + ', { enumerable: true, get: () => ' + expr + ' });';
  }
  // Everything added goes on the first line: the student's line numbers stay.
  const prelude = head + top.join('');
  // `prelude`: the length of the added statements before the file's own (line 1; a rubric audit's coverage skips them).
  return { code: prelude + body, prelude: prelude.length, async: hasTopLevelAwait(ast), imports, named, importLines };
}

/** A CommonJS file's `import(...)` and `import.meta` (left alone if it does not parse: evaluation reports V8's own error). */
function rewriteScriptImports(source) {
  if (!/\bimport\s*(?:\(|\.\s*meta)/.test(source)) return source;
  let ast;
  try {
    ast = acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true, allowReturnOutsideFunction: true });
  } catch {
    return source;
  }
  const forms = [];
  findImportForms(ast, forms);
  forms.sort((a, b) => b.start - a.start);
  let body = source;
  for (const f of forms) {
    body = f.type === 'MetaProperty'
      ? body.slice(0, f.start) + '__evigrade_meta' + body.slice(f.end)
      : body.slice(0, f.start) + '__evigrade_import(' + body.slice(f.source.start);
  }
  return body;
}

/** Throws unless `source` parses as an ES module. */
const acornParse = (source) => acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true });
/** Where a script (CommonJS, as Node wraps it) fails to parse: acorn's 1-based line, or null if acorn accepts it. */
function scriptSyntaxLine(source) {
  try {
    acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true, allowReturnOutsideFunction: true });
    return null;
  } catch (e) {
    return e && e.loc ? e.loc.line : null;
  }
}

const CHAIN_METHODS = new Set(['then', 'catch', 'finally']);
const CHAIN_CALL = /\.\s*(?:then|catch|finally)\s*\(/;

/** Every call `X.then(…)`, `X.catch(…)`, `X.finally(…)` in the tree (not `X?.then`, not computed). */
function findChainCalls(node, out) {
  if (!node || typeof node.type !== 'string') return;
  if (node.type === 'CallExpression' && !node.optional && node.callee.type === 'MemberExpression' && !node.callee.computed &&
      !node.callee.optional && node.callee.property.type === 'Identifier' && CHAIN_METHODS.has(node.callee.property.name) &&
      node.callee.object.type !== 'Super') out.push(node);
  for (const key in node) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    const v = node[key];
    if (Array.isArray(v)) for (const c of v) findChainCalls(c, out);
    else if (v && typeof v === 'object' && typeof v.type === 'string') findChainCalls(v, out);
  }
}

/** The index of the call's `(`: the first one after the callee outside comments. */
function openParen(source, from) {
  for (let i = from; i < source.length; i++) {
    const c = source[i];
    if (c === '(') return i;
    if (c === '/' && source[i + 1] === '/') i = source.indexOf('\n', i) < 0 ? source.length : source.indexOf('\n', i);
    else if (c === '/' && source[i + 1] === '*') i = source.indexOf('*/', i + 2) + 1;
  }
  return -1;
}

/**
 * A hidden test's promise chains made the harness's: `X.then(cb)` becomes `__evigrade_then(X, "then", cb)`, which
 * adopts a value the submission made through its own `then` first (as `await` does), so that `then` cannot skip
 * the test's callback and hand back a settled promise (red-team pass, hostile class 10). Lines stay where they were.
 * Null when the file has no such call or does not parse.
 */
function instrumentChains(source, sourceType) {
  if (!CHAIN_CALL.test(source)) return null;
  let ast;
  try {
    ast = acorn.parse(source, { ecmaVersion: 'latest', sourceType, allowHashBang: true, allowReturnOutsideFunction: sourceType === 'script', allowAwaitOutsideFunction: true });
  } catch {
    return null;
  }
  const calls = [];
  findChainCalls(ast, calls);
  if (calls.length === 0) return null;
  const edits = []; // [at, end, text, order]: insertions at one place go outermost first
  for (const call of calls) {
    const paren = openParen(source, call.callee.end);
    if (paren < 0) return null;
    const lines = blankLines(source.slice(call.callee.object.end, paren + 1));
    edits.push([call.callee.object.start, call.callee.object.start, '__evigrade_then(', call.end]);
    edits.push([call.callee.object.end, paren + 1, ', ' + JSON.stringify(call.callee.property.name) + (call.arguments.length ? ', ' : '') + lines, call.end]);
  }
  edits.sort((a, b) => b[0] - a[0] || a[3] - b[3]);
  let code = source;
  for (const [at, end, text] of edits) code = code.slice(0, at) + text + code.slice(end);
  return code;
}

const ESM_SYNTAX = /^\s*(import\s*[\w*{'"$]|export\s+(?:default|const|let|var|function|class|async|\{|\*))/m;

/** A hidden test file's module kind: by its extension, else by its first import/export statement (comments aside). */
function testFormatOf(name, source) {
  if (name.endsWith('.mjs')) return 'module';
  if (name.endsWith('.cjs')) return 'commonjs';
  return ESM_SYNTAX.test(source.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '')) ? 'module' : 'commonjs';
}

/**
 * A hidden test file as the CommonJS body a job runs ({ code, imports, script }), its promise chains instrumented
 * (instrumentChains): an ES module rewritten, a CommonJS file (`script`) as it is otherwise. Null when there is
 * nothing to change or it stays an ES module for Node's loader (a `.mjs` name, a syntax error, top-level await). Pure:
 * the grader computes it once per rubric and hands it to every job in the payload (a job spares acorn's parse of
 * the tests, ≈ 2 ms); a job handed none computes it itself.
 */
function testAsCommonJs(name, source) {
  if (testFormatOf(name, source) !== 'module') {
    const code = instrumentChains(source, 'script');
    return code === null ? null : { code, imports: [], script: true };
  }
  if (name.endsWith('.mjs')) return null;
  let esm;
  try {
    esm = esmToCjs(instrumentChains(source, 'module') ?? source);
  } catch {
    return null;
  }
  return esm.async ? null : { code: esm.code, imports: esm.imports, named: esm.named };
}

module.exports = { esmToCjs, rewriteScriptImports, acornParse, scriptSyntaxLine, testFormatOf, testAsCommonJs, instrumentChains };
