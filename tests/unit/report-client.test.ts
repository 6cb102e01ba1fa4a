// The report page's pure browser modules (src/report/client): the highlighter and the stack-frame splitter.
import { describe, expect, it } from 'vitest';
import { splitMessage, studentLines } from '../../src/report/client/frames.js';
import { highlight, langOf } from '../../src/report/client/highlight.js';

const show = (lines: ReturnType<typeof highlight>): string[] =>
  lines.map((l) => l.map((t) => (t.cls ? `${t.cls}(${t.text})` : t.text)).join(''));

describe('highlight', () => {
  it('picks the language from the extension', () => {
    expect(['a.js', 'b.MJS', 'c.tsx', 'd.py', 'e.txt', 'Makefile'].map(langOf)).toEqual([
      'js',
      'js',
      'js',
      'py',
      'plain',
      'plain',
    ]);
  });
  it('JavaScript: keywords, strings, numbers, comments; a block comment or template split at its lines (CRLF too)', () => {
    expect(show(highlight('const x = 0x1F; // hi\r\n/* a\nb */ let s = `t\n${x}`;\n', 'js'))).toEqual([
      'kw(const) x = num(0x1F); com(// hi)',
      'com(/* a)',
      'com(b */) kw(let) s = str(`t)',
      'str(${x}`);',
      '',
    ]);
    expect(show(highlight("if (a) return 'it\\'s';", 'js'))).toEqual(["kw(if) (a) kw(return) str('it\\'s');"]);
  });
  it('Python: keywords, prefixed and triple-quoted strings, comments', () => {
    expect(show(highlight('def f(x):\n    """doc\n    more"""\n    return rb\'\\x00\' + 1.5e3  # c\n', 'py'))).toEqual([
      'kw(def) f(x):',
      '    str("""doc)',
      'str(    more""")',
      "    kw(return) str(rb'\\x00') + num(1.5e3)  com(# c)",
      '',
    ]);
  });
  it('an unterminated string or comment runs to the end without looping', () => {
    expect(show(highlight("x = 'open\ny = 2", 'py'))).toEqual(["x = str('open)", 'y = num(2)']);
    expect(show(highlight('/* never closed\nstill', 'js'))).toEqual(['com(/* never closed)', 'com(still)']);
  });
});

describe('splitMessage', () => {
  const own = new Set(['leap.js', 'lib/year.js']);
  it("links frames into the student's files and replaces frame lines into the hidden tests by the test's name", () => {
    const msg =
      'Error: boom\n    at isLeap (file:///job/sub/leap.js:3:11)\n    at y (/job/sub/lib/year.js:9:1)\n    at file:///job/sub/leap.spec.js:16:26\n    at /evigrade/boot.cjs:4:2';
    expect(splitMessage(msg, own, 'leap > 1900')).toEqual([
      { kind: 'text', text: 'Error: boom\n    at isLeap (' },
      { kind: 'frame', path: 'leap.js', line: 3, text: 'leap.js:3' },
      { kind: 'text', text: ')\n    at y (' },
      { kind: 'frame', path: 'lib/year.js', line: 9, text: 'lib/year.js:9' },
      { kind: 'text', text: ')\n    in the test \u201Cleap > 1900\u201D' },
    ]);
    expect(studentLines(msg, own)).toEqual([
      { path: 'leap.js', line: 3 },
      { path: 'lib/year.js', line: 9 },
    ]);
  });
  it("Python frames, and a hidden test's path outside a frame line", () => {
    const msg =
      'Traceback:\n  File "/job/sub/leap.py", line 4, in is_leap\n  File "/job/sub/leap_test.py", line 9, in test_x\nsee /job/sub/leap_test.py:9:1 for details';
    expect(
      splitMessage(msg, new Set(['leap.py']), 't')
        .map((s) => (s.kind === 'frame' ? `[${s.path}:${s.line}]` : s.text))
        .join(''),
    ).toBe('Traceback:\n  [leap.py:4], in is_leap\n  in the test \u201Ct\u201D\nsee (hidden test) for details');
  });
  it('leaves a message without frames as it is', () => {
    expect(splitMessage("Cannot find module '/job/sub/leap' imported from x", own, 't')).toEqual([
      { kind: 'text', text: "Cannot find module '/job/sub/leap' imported from x" },
    ]);
  });
});
