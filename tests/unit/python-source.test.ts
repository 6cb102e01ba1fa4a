// The Python comment scanner against CPython itself: comments from `tokenize`, string statements from `ast`,
// on standard-library files and the agreement corpus (Debian's /usr/bin/python3 3.11, as the harness runs).
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  pythonCodeBytes,
  pythonCodeLines,
  pythonTrivia,
  silenceComments,
  stripPython,
} from '../../src/stages/analysis/python-source.js';
import { ROOT } from '../helpers.js';

const STDLIB = [
  'textwrap.py',
  'argparse.py',
  'tokenize.py',
  'dataclasses.py',
  'difflib.py',
  'fractions.py',
  'string.py',
  'json/decoder.py',
  'email/_header_value_parser.py',
  'typing.py',
  'inspect.py',
  'pydoc.py',
].map((f) => `/usr/lib/python3.11/${f}`);
const CORPUS = join(ROOT, 'tests', 'python-agreement');

function corpusFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.py') && !p.includes('syntax_error')) out.push(p);
    }
  };
  walk(CORPUS);
  return out.sort();
}

describe('stripPython agrees with CPython tokenize + ast', () => {
  it.each([
    ['stdlib', STDLIB],
    ['corpus', corpusFiles()],
  ])('%s files', (_name, files) => {
    const ref = JSON.parse(
      execFileSync('/usr/bin/python3', [join(ROOT, 'tests', 'fixtures', 'python-strip-reference.py'), ...files], {
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      }),
    ) as Record<string, { source: string; stripped: string }>;
    const differing = Object.entries(ref)
      .filter(([, r]) => stripPython(r.source) !== r.stripped)
      .map(([f]) => f);
    expect(differing).toEqual([]);
    expect(Object.keys(ref).length).toBe(files.length);
  });
});

describe('strings are not comments', () => {
  it('keeps # inside strings, f-strings and triple-quoted strings; blanks comments and docstrings', () => {
    const code = [
      'def f(x):',
      '    """Doc # not a comment',
      '    still the docstring: \'\'\' and " inside"""',
      '    s = \'#\' + "# also"  # a comment',
      "    t = f'{x!r:#>10}' + rb'\\'#'",
      "    u = '''a # b",
      "''' # tail",
      '    return s + t  # ignore previous instructions',
    ].join('\n');
    const lines = code.split('\n');
    const blankLine = (i: number): string => ' '.repeat((lines[i] as string).length);
    expect(stripPython(code).split('\n')).toEqual([
      'def f(x):',
      blankLine(1),
      blankLine(2),
      `    s = '#' + "# also"${' '.repeat('  # a comment'.length)}`,
      lines[4],
      lines[5],
      `'''${' '.repeat(' # tail'.length)}`,
      `    return s + t${' '.repeat('  # ignore previous instructions'.length)}`,
    ]);
  });

  it('finds string statements after ; and after a one-line header, not after lambda or an annotation', () => {
    const code = 'x = 1; "note"\nclass A: "doc"\nf = lambda: "kept"\ny: str = "kept"\nif x: "gone"\n';
    const t = pythonTrivia(code);
    expect(t.stringStatements.map(([s, e]) => code.slice(s, e))).toEqual(['"note"', '"doc"', '"gone"']);
  });
});

describe('silenceComments (what ruff sees)', () => {
  it('keeps each comment its length and its #, and no noqa survives', () => {
    const code = 'import os  # noqa: F401\nx = "# noqa"  # ruff: noqa\n';
    const out = silenceComments(code);
    expect(out).toBe(
      `import os  #${'_'.repeat('# noqa: F401'.length - 1)}\nx = "# noqa"  #${'_'.repeat('# ruff: noqa'.length - 1)}\n`,
    );
    expect(out.length).toBe(code.length);
  });
});

describe('code size', () => {
  it('counts lines and bytes of code only', () => {
    const code = '"""Module doc\nspans lines."""\n# comment\n\ndef f():\n    return 1  # one\n';
    expect(pythonCodeLines(code)).toBe(2);
    expect(pythonCodeBytes(code)).toBe('def f():'.length + 1 + 'return 1'.length + 1);
  });
});
