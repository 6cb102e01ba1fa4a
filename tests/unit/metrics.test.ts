import { describe, expect, it } from 'vitest';
import {
  measureFile,
  ParseFailure,
  type FunctionMetrics,
  type PolicyFinding,
} from '../../src/stages/analysis/metrics.js';

const functionsOf = (code: string): FunctionMetrics[] => measureFile('t.js', code).functions;
const policyOf = (code: string): PolicyFinding[] => measureFile('t.js', code).policy;

/** Cyclomatic complexity of the one function named `f` in `code`. */
function complexityOfF(code: string): number {
  const f = functionsOf(code).find((fn) => fn.name === 'f');
  if (!f) throw new Error(`no function f in ${code}`);
  return f.cyclomatic;
}

function failureOf(code: string): { name: string; message: string; line: number; column: number } {
  try {
    measureFile('bad.js', code);
  } catch (err) {
    if (err instanceof ParseFailure)
      return { name: err.name, message: err.message, line: err.line, column: err.column };
    throw err;
  }
  throw new Error('expected a ParseFailure');
}

describe('measure: cyclomatic complexity', () => {
  it.each([
    ['straight line', 'function f() { return 1; }', 1],
    ['if / else if / else', 'function f(a) { if (a > 1) return 1; else if (a > 0) return 2; else return 3; }', 3],
    [
      'switch: each case with a test, not default',
      'function f(a) { switch (a) { case 1: return 1; case 2: case 3: return 2; default: return 0; } }',
      4,
    ],
    ['nested ternaries', 'function f(a) { return a ? (a > 1 ? 2 : 1) : 0; }', 3],
    ['&& || ?? each count', 'function f(a, b, c) { return (a && b || c) ?? 0; }', 4],
    [
      'logical assignment counts, arithmetic does not',
      'function f(o) { o.a &&= 1; o.b ||= 2; o.c ??= 3; o.d += 4; }',
      4,
    ],
    [
      'every loop kind',
      'function f(xs) { for (let i = 0; i < 1; i++) {} for (const x of xs) {} for (const k in xs) {} while (xs.length) xs.pop(); do {} while (false); }',
      6,
    ],
    ['catch counts, finally does not', 'function f() { try { g(); } catch (e) { h(); } finally { k(); } }', 2],
    ['default values, in parameters and destructuring', 'function f(a = 1, { b = 2 } = {}) { return a + b; }', 4],
    ['optional chaining (as ESLint 9 counts it)', 'function f(o) { return o?.a?.b.c?.(); }', 4],
    [
      'a nested function does not add to its parent',
      'function f(a) { const g = (b) => (b ? 1 : 2); return a && g; }',
      2,
    ],
  ])('%s', (_label, code, expected) => {
    expect(complexityOfF(code)).toBe(expected);
  });

  it('counts a nested function separately', () => {
    const code = 'function outer(a) {\n  if (a) a++;\n  const inner = (b) => b ? 1 : b || 2;\n  return inner;\n}\n';
    expect(functionsOf(code).map(({ name, cyclomatic }) => ({ name, cyclomatic }))).toEqual([
      { name: 'outer', cyclomatic: 2 },
      { name: 'inner', cyclomatic: 3 },
    ]);
  });

  it('reports top-level decisions as <module> and omits a decision-free top level', () => {
    expect(functionsOf('const a = 1;\nfunction f() {}\n').map((f) => f.name)).toEqual(['f']);
    expect(functionsOf('\n\nfor (;;) {}').map(({ name, line, endLine }) => ({ name, line, endLine }))).toEqual([
      { name: '<module>', line: 1, endLine: 3 },
    ]);
    expect(functionsOf('const a = process.argv[2] || "x";\nif (a) {\n  f();\n}\nfunction f() {}\n')).toEqual([
      {
        name: '<module>',
        line: 1,
        endLine: 5,
        cyclomatic: 3,
        maxLoopNesting: 0,
        recursive: false,
        lines: 5,
        params: 0,
      },
      { name: 'f', line: 5, endLine: 5, cyclomatic: 1, maxLoopNesting: 0, recursive: false, lines: 1, params: 0 },
    ]);
  });
});

describe('measure: loop nesting', () => {
  it('takes the deepest syntactic loop nest per function; callbacks start again from 0', () => {
    const code = [
      'function f(m) {',
      '  for (const row of m) {',
      '    for (const x of row) { while (x) { break; } }',
      '  }',
      '  for (;;) { break; }',
      '  m.forEach((r) => { for (const x of r) {} });',
      '}',
    ].join('\n');
    expect(functionsOf(code).map(({ name, maxLoopNesting }) => ({ name, maxLoopNesting }))).toEqual([
      { name: 'f', maxLoopNesting: 3 },
      { name: '<anonymous>', maxLoopNesting: 1 },
    ]);
    expect(measureFile('t.js', code).maxLoopNesting).toBe(3);
  });

  it('is 0 without loops, and the file maxima default to 0 and 1 without functions', () => {
    expect(measureFile('t.js', 'const a = 1;\n')).toEqual({
      file: 't.js',
      loc: 1,
      functions: [],
      maxLoopNesting: 0,
      maxCyclomatic: 1,
      policy: [],
    });
  });
});

describe('measure: recursion', () => {
  const code = [
    'function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); }',
    'const fib = (n) => (n < 2 ? n : fib(n - 1) + fib(n - 2));',
    'function notRec(n) { return fact(n); }',
    'class Tree {',
    '  size() { return this.kids.reduce((s, k) => s + k.size(), 1); }',
    '  depth(n) { return n ? this.depth(n - 1) : 0; }',
    '  #hidden(n) { return n && this.#hidden(n - 1); }',
    '  visit() { this.kids.forEach((k) => this.visit(k)); }',
    '  lonely() { return lonely(); }',
    '}',
    'function walk(node) { node.kids.forEach(function (k) { walk(k); }); }',
  ].join('\n');

  it.each([
    ['fact', true],
    ['fib', true],
    ['notRec', false],
    ['size', false],
    ['depth', true],
    ['#hidden', true],
    ['visit', true],
    ['lonely', false],
    ['walk', true],
  ])('%s → %s', (name, expected) => {
    expect(functionsOf(code).find((f) => f.name === name)?.recursive).toBe(expected);
  });

  it('never marks an anonymous callback', () => {
    expect(
      functionsOf(code)
        .filter((f) => f.name === '<anonymous>')
        .map((f) => f.recursive),
    ).toEqual([false, false, false]);
  });
});

describe('measure: names, lines and params', () => {
  it('names functions by declaration, variable, key or assignment, else <anonymous>', () => {
    const code = [
      'function decl(a, b, c) {}',
      'const arrow = (x) => x;',
      'let expr = function () {};',
      'const named = function inner(a) {};',
      'const obj = { method(a, b) {}, prop: function () {}, "quoted key": () => {}, [Symbol.iterator]() {} };',
      'class K {',
      '  constructor(a) {}',
      '  field = (e) => e;',
      '  static make() {}',
      '  get size() { return 0; }',
      '}',
      'exports.handler = async function (event, ctx) {};',
      'module.exports = function () {};',
      '[1].map(function (x) { return x; });',
      'export default function () {}',
    ].join('\n');
    expect(functionsOf(code).map(({ name, line, params }) => `${line}:${name}/${params}`)).toEqual([
      '1:decl/3',
      '2:arrow/1',
      '3:expr/0',
      '4:inner/1',
      '5:method/2',
      '5:prop/0',
      '5:quoted key/0',
      '5:<anonymous>/0',
      '7:constructor/1',
      '8:field/1',
      '9:make/0',
      '10:size/0',
      '12:handler/2',
      '13:<anonymous>/0',
      '14:<anonymous>/1',
      '15:<anonymous>/0',
    ]);
  });

  it('reports 1-based line, endLine and lines = endLine - line + 1', () => {
    expect(functionsOf('\n\nfunction f(a,\n  b) {\n  return a;\n}\n')).toEqual([
      { name: 'f', line: 3, endLine: 6, cyclomatic: 1, maxLoopNesting: 0, recursive: false, lines: 4, params: 2 },
    ]);
  });
});

describe('measure: lines of code', () => {
  it.each([
    ['empty file', '', 0],
    [
      'blank and comment-only lines do not count',
      '// header\n\n/* a\n   block\n*/\nconst a = 1; // trailing\n\n   \nconst b = /* inline */ 2;\n',
      2,
    ],
    ['code after a block comment on the same line counts', '/* x */ a();\n/*\n*/ b();\n', 2],
    ['a hashbang is not code', '#!/usr/bin/env node\nmain();\n', 1],
    ['CRLF line breaks', 'a();\r\n\r\n// c\r\nb();\r\n', 2],
    [
      'comment markers inside strings are code',
      'const s = "// not a comment";\nconst t = `\n/* still a string */\n`;\n',
      4,
    ],
  ])('%s', (_label, code, expected) => {
    expect(measureFile('t.js', code).loc).toBe(expected);
  });
});

describe('measure: policy findings', () => {
  it.each([
    [
      'require child_process',
      "const cp = require('child_process');",
      [{ rule: 'policy.child_process', line: 1, column: 12, message: 'requires "child_process"' }],
    ],
    [
      'node: prefix',
      "import { exec } from 'node:child_process';",
      [{ rule: 'policy.child_process', line: 1, column: 1, message: 'imports "node:child_process"' }],
    ],
    ['fs', "import fs from 'fs';", [{ rule: 'policy.fs', line: 1, column: 1, message: 'imports "fs"' }]],
    [
      'fs subpath',
      "const { readFile } = require('node:fs/promises');",
      [{ rule: 'policy.fs', line: 1, column: 22, message: 'requires "node:fs/promises"' }],
    ],
    ['re-export', "export * from 'fs';", [{ rule: 'policy.fs', line: 1, column: 1, message: 're-exports "fs"' }]],
    [
      'require with a template literal',
      'require(`vm`);',
      [{ rule: 'policy.vm', line: 1, column: 1, message: 'requires "vm"' }],
    ],
    [
      'TS import =',
      "import net = require('net');",
      [{ rule: 'policy.net', line: 1, column: 1, message: 'requires "net"' }],
    ],
    ['vm', "require('vm');", [{ rule: 'policy.vm', line: 1, column: 1, message: 'requires "vm"' }]],
    [
      'global fetch',
      "fetch('http://169.254.169.254/');",
      [{ rule: 'policy.net', line: 1, column: 1, message: 'calls fetch()' }],
    ],
    [
      'inspector',
      "require('inspector');",
      [{ rule: 'policy.inspector', line: 1, column: 1, message: 'requires "inspector"' }],
    ],
    ['eval', 'eval("1 + 1");', [{ rule: 'policy.eval', line: 1, column: 1, message: 'calls eval()' }]],
    [
      'new Function',
      'const f = new Function("return 1");',
      [{ rule: 'policy.eval', line: 1, column: 11, message: 'constructs new Function()' }],
    ],
    [
      'Function()',
      'const f = Function("return 1");',
      [{ rule: 'policy.eval', line: 1, column: 11, message: 'calls Function()' }],
    ],
    [
      'process.exit',
      'if (bad) process.exit(1);',
      [{ rule: 'policy.process_exit', line: 1, column: 10, message: 'calls process.exit()' }],
    ],
    [
      'process.reallyExit via computed key',
      "process['reallyExit'](0);",
      [{ rule: 'policy.process_exit', line: 1, column: 1, message: 'calls process.reallyExit()' }],
    ],
    [
      'process.kill',
      'process.kill(process.pid);',
      [{ rule: 'policy.process_exit', line: 1, column: 1, message: 'calls process.kill()' }],
    ],
    [
      'process.abort',
      'process.abort();',
      [{ rule: 'policy.process_exit', line: 1, column: 1, message: 'calls process.abort()' }],
    ],
    [
      'computed dynamic import',
      'await import(name);',
      [{ rule: 'policy.dynamic_import', line: 1, column: 7, message: 'dynamic import() with a computed specifier' }],
    ],
    [
      'dynamic import of a builtin',
      "const m = await import('fs');",
      [
        { rule: 'policy.dynamic_import', line: 1, column: 17, message: 'dynamic import() of node builtin "fs"' },
        { rule: 'policy.fs', line: 1, column: 17, message: 'imports "fs"' },
      ],
    ],
    [
      'dynamic import of a harmless builtin',
      "await import('node:path');",
      [{ rule: 'policy.dynamic_import', line: 1, column: 7, message: 'dynamic import() of node builtin "node:path"' }],
    ],
    [
      'position on a later line',
      "\n\n  const w = require('worker_threads');",
      [{ rule: 'policy.worker_threads', line: 3, column: 13, message: 'requires "worker_threads"' }],
    ],
  ])('%s', (_label, code, expected) => {
    expect(policyOf(code)).toEqual(expected);
  });

  it.each(
    [
      ['net', 'dgram', 'dns', 'tls', 'http', 'https', 'http2'].map((m) => [m, 'policy.net']),
      [
        ['worker_threads', 'policy.worker_threads'],
        ['cluster', 'policy.worker_threads'],
      ],
    ].flat() as Array<[string, string]>,
  )('module %s → %s', (mod, rule) => {
    expect(policyOf(`require('${mod}');`)).toEqual([{ rule, line: 1, column: 1, message: `requires "${mod}"` }]);
  });

  it.each([
    ['a module name inside a string', "console.log('child_process', \"require('fs')\");"],
    ['a local object called fs', 'const fs = {}; fs.readFileSync("x");'],
    ['a method called eval', 'obj.eval("x"); obj.Function();'],
    ['exit on something other than process', 'app.exit(1); process.exitCode = 1; process.on("exit", () => {});'],
    ['a computed require (not a dynamic import)', 'require(name);'],
    ['names that only start like a flagged module', "require('fsx'); require('network'); require('lodash/fp');"],
    ['a dynamic import of a package or relative file', "await import('lodash'); await import('./local.js');"],
    ['a type-only mention', 'let t: typeof import("fs");'],
  ])('no finding for %s', (_label, code) => {
    expect(policyOf(code)).toEqual([]);
  });
});

describe('measure: failures and hostile input', () => {
  it('throws ParseFailure with a 1-based line and column', () => {
    expect(failureOf('const x = 1;\nlet y = ;\n')).toEqual({
      name: 'ParseFailure',
      message: 'Expression expected.',
      line: 2,
      column: 9,
    });
    expect(failureOf('function f() {\n  return 1;\n')).toEqual({
      name: 'ParseFailure',
      message: "'}' expected.",
      line: 3,
      column: 1,
    });
  });

  it('parses CommonJS', () => {
    const result = measureFile('t.js', "const path = require('path');\nmodule.exports = { a: 1 };\nreturn;\n");
    expect({ loc: result.loc, policy: result.policy, functions: result.functions }).toEqual({
      loc: 3,
      policy: [],
      functions: [],
    });
  });

  it.each([
    ['5,000 nested parentheses', `x = ${'('.repeat(5000)}1${')'.repeat(5000)};`],
    ['5,000 nested arrays', `x = ${'['.repeat(5000)}${']'.repeat(5000)};`],
    ['5,000 nested blocks', `${'{'.repeat(5000)}${'}'.repeat(5000)}`],
  ])('%s: measures or throws ParseFailure, without crashing', (_label, code) => {
    let outcome: unknown;
    try {
      outcome = measureFile('deep.js', code);
    } catch (err) {
      outcome = err;
    }
    if (outcome instanceof ParseFailure) {
      expect({ message: outcome.message, line: outcome.line, column: outcome.column }).toEqual({
        message: 'too deeply nested to analyse',
        line: 1,
        column: 1,
      });
    } else {
      expect(outcome).toMatchObject({ file: 'deep.js', loc: 1 });
    }
    // The parser must still work after unwinding from a stack overflow.
    expect(functionsOf('function ok() {}').map((f) => f.name)).toEqual(['ok']);
  });

  it('measures a 10,000-line function', () => {
    const body = Array.from({ length: 10_000 }, (_, i) => `  if (x > ${i}) x++;`).join('\n');
    const result = measureFile('long.js', `function big(x) {\n${body}\n  return x;\n}\n`);
    expect(result.functions).toEqual([
      {
        name: 'big',
        line: 1,
        endLine: 10_003,
        cyclomatic: 10_001,
        maxLoopNesting: 0,
        recursive: false,
        lines: 10_003,
        params: 1,
      },
    ]);
    expect(result.loc).toBe(10_003);
  });

  it('walks nesting the parser accepts without recursion of its own', () => {
    const loops = `function f() {\n${'for (;;) '.repeat(300)}{}\n}\n`;
    expect(functionsOf(loops)).toEqual([
      { name: 'f', line: 1, endLine: 3, cyclomatic: 301, maxLoopNesting: 300, recursive: false, lines: 3, params: 0 },
    ]);
  });
});
