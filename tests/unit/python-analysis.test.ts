// Python style and complexity evidence: ruff's findings with the grader's levels (and no way to silence
// them), radon's complexity counts on hand-checked functions, loop nesting, recursion and policy findings.
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePython, preparePythonParser } from '../../src/adapters/analysis/python-parser.js';
import { lintPython as lintView } from '../../src/adapters/analysis/ruff.js';
import { analysisView } from '../../src/stages/analysis/analysis-view.js';
import { LintSpecSchema, type LintSpec } from '../../src/domain/lint.js';
import { ruffLevel, ruffSelect } from '../../src/domain/ruff.js';
import { measurePython } from '../../src/stages/analysis/python-metrics.js';

const lintPython = (code: string, s: LintSpec) => lintView(analysisView('a.py', code), s);
const spec = (rules: Record<string, string> = {}, globals: string[] = []) => LintSpecSchema.parse({ rules, globals });
const rules = (code: string, s = spec()) =>
  lintPython(code, s).map((m) => `${m.rule}:${m.severity}:${m.line}:${m.column}`);

function metrics(code: string) {
  const tree = parsePython(code);
  try {
    return measurePython('m.py', code, tree);
  } finally {
    tree.delete();
  }
}
const cc = (code: string) => Object.fromEntries(metrics(code).functions.map((f) => [f.name, f.cyclomatic]));

beforeAll(async () => {
  await preparePythonParser();
});

describe('ruff findings', () => {
  const CODE =
    'import os\nimport sys  # noqa: F401\n\n\ndef f(x, acc=[]):  # noqa\n    if x == None:  # ruff: noqa\n        return undefined_name  # type: ignore\n    try:\n        l = 1\n    except:\n        pass\n    return acc\n';

  it('grades correctness as errors and taste as warnings, and no noqa comment silences anything', () => {
    expect(rules(CODE)).toEqual([
      'ruff/F401:warning:1:8',
      'ruff/F401:warning:2:8',
      'ruff/B006:error:5:14',
      'ruff/E711:error:6:13',
      'ruff/F821:error:7:16',
      'ruff/E741:warning:9:9',
      'ruff/F841:warning:9:9',
      'ruff/E722:error:10:5',
    ]);
  });

  it('takes rubric selectors, full codes and prefixes, the longest match deciding', () => {
    expect(rules(CODE, spec({ F4: 'off', E7: 'off', E711: 'warn', B006: 'off' }))).toEqual([
      'ruff/E711:warning:6:13',
      'ruff/F821:error:7:16',
      'ruff/F841:warning:9:9',
    ]);
    expect(ruffLevel('E712', spec({ E7: 'error' }))).toBe('error');
    expect(ruffLevel('E501', spec())).toBe('off');
    expect(ruffSelect(spec({ E501: 'warn', F: 'off' }))).toContain('E501');
  });

  it("knows the rubric's extra builtins", () => {
    expect(rules('print(grader_helper)\n')).toEqual(['ruff/F821:error:1:7']);
    expect(rules('print(grader_helper)\n', spec({}, ['grader_helper']))).toEqual([]);
  });

  it('reports a file that does not parse as one parse-error, and syntax newer than Python 3.11 as not parsing', () => {
    expect(lintPython('def f(:\n    return (\n', spec())).toEqual([
      {
        rule: 'parse-error',
        severity: 'error',
        line: 1,
        column: 7,
        message: 'Expected a parameter or the end of the parameter list',
      },
    ]);
    expect(rules('def first[T](xs: list[T]) -> T:\n    return xs[0]\n')).toEqual(['parse-error:error:1:10']);
  });
});

describe('complexity as radon counts it', () => {
  it('counts if/elif, boolean operators, loops and their else, handlers and a try else, comprehensions, ternaries, asserts', () => {
    const code = [
      'def grade(score, bonus=1 if x else 2):', // the default is not counted (radon skips arguments)
      '    if score > 90 and bonus or score > 95:', // if +1, and +1, or +1
      '        return "A"',
      '    elif score > 80:', // +1
      '        return "B"',
      '    for i in range(3):', // +1
      '        pass',
      '    else:', // +1
      '        pass',
      '    while score:', // +1
      '        score -= 1',
      '    try:',
      '        pass',
      '    except ValueError:', // +1
      '        pass',
      '    except (KeyError, TypeError):', // +1
      '        pass',
      '    else:', // +1
      '        pass',
      '    finally:',
      '        pass',
      '    xs = [a for a in range(9) if a if a > 2 for b in range(a)]', // for +1, if +1, if +1, for +1 (and the try's else above: +1)
      '    assert score and bonus', // +1, nothing inside counted
      '    with open("f") as fh:', // 0
      '        pass',
      '    return "C" if score else "D"', // +1
    ].join('\n');
    expect(cc(code)).toEqual({ grade: 17 }); // radon 5.1 says 17
  });

  it("counts match cases as radon 6 does, a lambda's decisions for its function, a closure apart, methods by class", () => {
    const code = [
      'class Shape:',
      '    def area(self, kind):',
      '        match kind:',
      '            case "square" if self.ok:', // guard not counted
      '                return 1',
      '            case "circle" | "disc":',
      '                return 2',
      '            case _:',
      '                return 0',
      '    def total(self, xs):',
      '        key = lambda x: x if x else 0', // +1 for total
      '        def inner(y):',
      '            return y or 1', // inner: +1
      '        return sum(map(key, xs))',
    ].join('\n');
    expect(cc(code)).toEqual({ 'Shape.area': 3, 'Shape.total': 2, inner: 2 });
  });
});

describe('loop nesting, recursion, size and parameters', () => {
  it('measures each function', () => {
    const code = [
      'def fact(n):',
      '    return 1 if n < 2 else n * fact(n - 1)',
      '',
      '',
      'class Tree:',
      '    def depth(self, node, *rest, key=None, **kw):',
      '        for child in node:',
      '            while child:',
      '                child = [x for x in child for y in x]',
      '        return max(self.depth(c) for c in node)',
      '',
      '    def other(self):',
      '        return depth(self)',
    ].join('\n');
    const m = metrics(code);
    expect(m.functions).toEqual([
      { name: 'fact', line: 1, endLine: 2, cyclomatic: 2, maxLoopNesting: 0, recursive: true, lines: 2, params: 1 },
      {
        name: 'Tree.depth',
        line: 6,
        endLine: 10,
        cyclomatic: 6,
        maxLoopNesting: 4,
        recursive: true,
        lines: 5,
        params: 5,
      },
      {
        name: 'Tree.other',
        line: 12,
        endLine: 13,
        cyclomatic: 1,
        maxLoopNesting: 0,
        recursive: false,
        lines: 2,
        params: 1,
      },
    ]);
    expect([m.loc, m.maxLoopNesting, m.maxCyclomatic]).toEqual([10, 4, 6]);
  });

  it('lists module-level code that makes decisions as <module>, and leaves docstrings and comments out of LOC', () => {
    const m = metrics('"""Doc."""\n# note\nimport sys\n\nif len(sys.argv) > 1:\n    print(sys.argv[1])\n');
    expect(m.functions).toEqual([
      {
        name: '<module>',
        line: 1,
        endLine: 6,
        cyclomatic: 2,
        maxLoopNesting: 0,
        recursive: false,
        lines: 6,
        params: 0,
      },
    ]);
    expect(m.loc).toBe(3);
  });
});

describe('policy findings, through import aliases', () => {
  it('names what a submission should not need, with the JavaScript codes where the meaning is the same', () => {
    const code = [
      'import os as o, subprocess',
      'from os import system as s',
      'from ctypes import CDLL',
      'from urllib import request',
      'import importlib',
      'def f(cmd):',
      '    o.system(cmd)',
      '    s(cmd)',
      '    eval(cmd)',
      '    exec(cmd)',
      '    __import__("socket")',
      '    importlib.import_module(cmd)',
      '    open("/etc/passwd").read()',
      '    open("data.txt").read()',
      '    o._exit(0)',
      '    os.path.join("a", "b")',
    ].join('\n');
    expect(metrics(code).policy.map((p) => `${p.line}:${p.rule}:${p.message}`)).toEqual([
      '1:policy.child_process:imports "subprocess"',
      '3:policy.ctypes:imports "ctypes"',
      '4:policy.net:imports "urllib.request"',
      '7:policy.child_process:calls os.system() (as o.system)',
      '8:policy.child_process:calls os.system() (as s)',
      '9:policy.eval:calls eval()',
      '10:policy.eval:calls exec()',
      '11:policy.dynamic_import:calls __import__()',
      '11:policy.net:imports "socket" dynamically',
      '12:policy.dynamic_import:calls importlib.import_module()',
      '13:policy.fs:opens the absolute path "/etc/passwd"',
      '15:policy.process_exit:calls os._exit() (as o._exit)',
    ]);
  });

  it('resolves names a star import brings in', () => {
    expect(metrics('from os import *\nsystem("ls")\n').policy.map((p) => p.message)).toEqual([
      'calls os.system() (as system)',
    ]);
  });
});
