/**
 * A small syntax highlighter for the report's source view: JavaScript/TypeScript and Python. It only
 * classifies text (comments, strings, numbers, keywords); it never builds markup. Pure, no DOM.
 */
export type Lang = 'js' | 'py' | 'plain';
export type TokenClass = 'com' | 'str' | 'num' | 'kw' | '';
export interface Token {
  readonly cls: TokenClass;
  readonly text: string;
}

export function langOf(path: string): Lang {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  if (['js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx'].includes(ext)) return 'js';
  return ext === 'py' ? 'py' : 'plain';
}

const JS_KW = new Set(
  (
    'async await break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'from function if implements import in instanceof interface let new null of private protected public return static super switch this throw ' +
    'true try type typeof undefined var void while with yield as readonly declare namespace keyof'
  ).split(' '),
);
const PY_KW = new Set(
  (
    'False None True and as assert async await break class continue def del elif else except finally for from global if ' +
    'import in is lambda nonlocal not or pass raise return try while with yield match case self'
  ).split(' '),
);

// One alternation per language, tried at each position (sticky): comment | string | number | word | anything else.
const JS_RE =
  /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|('(?:\\[\s\S]|[^'\\\n])*'?|"(?:\\[\s\S]|[^"\\\n])*"?|`(?:\\[\s\S]|[^`\\])*`?)|(\b(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)n?\b)|([A-Za-z_$][\w$]*)|([\s\S])/y;
const PY_RE =
  /(#[^\n]*)|([rRbBuUfF]{0,2}(?:"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|'(?:\\[\s\S]|[^'\\\n])*'?|"(?:\\[\s\S]|[^"\\\n])*"?))|(\b(?:0[xX][0-9a-fA-F_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?j?)\b)|([A-Za-z_][\w]*)|([\s\S])/y;

/** The text as tokens, one list per line ('\n', '\r\n' and '\r' end lines); a token spanning lines is split at them. */
export function highlight(source: string, lang: Lang): Token[][] {
  const text = source.replace(/\r\n?/g, '\n');
  const lines: Token[][] = [[]];
  const push = (cls: TokenClass, t: string): void => {
    const parts = t.split('\n');
    parts.forEach((p, k) => {
      if (k) lines.push([]);
      if (!p) return;
      const line = lines[lines.length - 1] as Token[];
      const last = line[line.length - 1];
      if (last && last.cls === cls) line[line.length - 1] = { cls, text: last.text + p };
      else line.push({ cls, text: p });
    });
  };
  if (lang === 'plain') {
    push('', text);
    return lines;
  }
  const re = lang === 'js' ? JS_RE : PY_RE;
  const kw = lang === 'js' ? JS_KW : PY_KW;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (re.lastIndex < text.length && (m = re.exec(text)) !== null) {
    if (m[1] !== undefined) push('com', m[1]);
    else if (m[2] !== undefined) push('str', m[2]);
    else if (m[3] !== undefined) push('num', m[3]);
    else if (m[4] !== undefined) push(kw.has(m[4]) ? 'kw' : '', m[4]);
    else push('', m[5] ?? '');
  }
  return lines;
}
