import { parse } from '@typescript-eslint/typescript-estree';
import { describe, expect, it } from 'vitest';
import { stripComments } from '../../src/stages/analysis/strip-comments.js';

const parses = (code: string): boolean => {
  try {
    parse(code, { comment: true, range: true, jsx: false });
    return true;
  } catch {
    return false;
  }
};

/**
 * Whatever is removed, the output keeps the input's length and line breaks,
 * and every character that survives stays at its offset (so at its line and column).
 */
function expectLayoutKept(input: string, output: string): void {
  expect(output.length).toBe(input.length);
  expect(output.split(/\r\n|[\r\n\u2028\u2029]/).length).toBe(input.split(/\r\n|[\r\n\u2028\u2029]/).length);
  for (let i = 0; i < output.length; i++) {
    if (output[i] !== ' ') expect(output[i], `offset ${i}`).toBe(input[i]);
  }
}

// [label, input, expected output]. Inputs in the first table parse; the
// second table's do not, so they exercise the fallback scanner.
const parsedCases: Array<[string, string, string]> = [
  ['no comments: unchanged', 'const a = 1;\nfoo(a);\n', 'const a = 1;\nfoo(a);\n'],
  ['line comment', 'const a = 1; // note\nconst b = 2;\n', 'const a = 1;        \nconst b = 2;\n'],
  ['line comment at EOF without newline', 'a();\n// the end', 'a();\n          '],
  ['block comment across lines keeps the line breaks', 'a /* one\n two */ b;\n', 'a       \n        b;\n'],
  [
    'JSDoc block',
    '/**\n * Adds.\n */\nfunction add(a, b) { return a + b; }\n',
    '   \n        \n   \nfunction add(a, b) { return a + b; }\n',
  ],
  [
    'comment markers inside strings stay',
    'const u = "http://x/*y*/"; // c\nconst v = \'//\';\n',
    'const u = "http://x/*y*/";     \nconst v = \'//\';\n',
  ],
  [
    'template text keeps its markers; comments inside ${} go',
    'const t = `a // b ${x /* c */} /* d */`;\n',
    'const t = `a // b ${x        } /* d */`;\n',
  ],
  [
    'nested templates with comments inside ${}',
    'const t = `a${`b${c /* in */}` // line\n}`;\n',
    'const t = `a${`b${c         }`        \n}`;\n',
  ],
  [
    'regex literals stay',
    'const r = /\\/\\/|\\/\\*/g; // c\nconst s = /[/*]/.test(x);\n',
    'const r = /\\/\\/|\\/\\*/g;     \nconst s = /[/*]/.test(x);\n',
  ],
  ['division is not a regex', 'const q = a / b / c; /* d */\n', 'const q = a / b / c;        \n'],
  ['hashbang is blanked', '#!/usr/bin/env node\nmain(); // go\n', '                   \nmain();      \n'],
  ['CRLF stays', 'a(); // x\r\n/* y */ b();\r\n', 'a();     \r\n        b();\r\n'],
  ['empty input', '', ''],
];

const brokenCases: Array<[string, string, string]> = [
  ['unterminated block comment runs to EOF', 'a();\n/* never closed\nb();', 'a();\n               \n    '],
  [
    'syntax error elsewhere',
    "let x = ; // bad\nconst s = '/* no */'; /* c */\n",
    "let x = ;       \nconst s = '/* no */';        \n",
  ],
  ['strings with escapes', 'x = "a\\"//b"; y = \'c\\\'/*d\'; // e\n}', 'x = "a\\"//b"; y = \'c\\\'/*d\';     \n}'],
  [
    'nested templates with comments inside ${}',
    'x = `a${ `b${ y /* c */ }` } // not ${z} ${ {k: 1} /* e */ }` // f\n}',
    'x = `a${ `b${ y         }` } // not ${z} ${ {k: 1}         }`     \n}',
  ],
  [
    'regex after return, `(`, `=` and `}`',
    'function f() { return /\\/*x/.test(s) } /[/]/.exec(t); q = (/a/); // c\n}',
    'function f() { return /\\/*x/.test(s) } /[/]/.exec(t); q = (/a/);     \n}',
  ],
  [
    'division after `)`, `]`, a value and `++`',
    'x = (a) / b; y = c[0] / 2; z = i++ / 2; w = 3 / 4 // c\n}',
    'x = (a) / b; y = c[0] / 2; z = i++ / 2; w = 3 / 4     \n}',
  ],
  ['a misjudged regex stops at its line end', 'x = {} / 2 /* c */;\ny(); // d\n}', 'x = {} / 2 /* c */;\ny();     \n}'],
  ['unterminated string stops at its line', 'x = "abc\ny(); // c\n', 'x = "abc\ny();     \n'],
  ['unterminated template runs to EOF', 'x = `abc // not\n/* not */', 'x = `abc // not\n/* not */'],
  ['hashbang', '#!/usr/bin/env node\nlet = ; // c', '                   \nlet = ;     '],
];

describe('stripComments on code that parses', () => {
  it.each(parsedCases)('%s', (_label, input, expected) => {
    expect(parses(input)).toBe(true);
    const output = stripComments(input);
    expect(output).toBe(expected);
    expectLayoutKept(input, output);
  });
});

describe('stripComments on code that does not parse (fallback scanner)', () => {
  it.each(brokenCases)('%s', (_label, input, expected) => {
    expect(parses(input)).toBe(false);
    const output = stripComments(input);
    expect(output).toBe(expected);
    expectLayoutKept(input, output);
  });

  it('agrees with the parser on every parseable case once broken', () => {
    // Appending a stray `}` forces the fallback without touching the comments.
    for (const [, input, expected] of parsedCases) {
      expect(stripComments(`${input}\n}`)).toBe(`${expected}\n}`);
    }
  });

  it('survives nesting too deep for the parser', () => {
    const input = `x = ${'['.repeat(5000)}/* c */${']'.repeat(5000)};`;
    expect(stripComments(input)).toBe(input.replace('/* c */', '       '));
  });
});
