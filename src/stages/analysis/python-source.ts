// Python source, read as CPython 3.11's tokenizer reads it, for three uses that must agree on what is a
// comment: the judge sees code without comments and docstrings, ruff sees code whose comments say nothing
// (a `# noqa` must not silence the grader), and size limits and LOC count code only. Offsets, lines and
// columns never move: what is removed becomes spaces (or filler), every line break stays.
//
// A tolerant scanner, linear in the file, never a parser: it must also read code that does not parse.
// Unterminated strings end at their line break (single quotes) or the end of the file (triple quotes).

type Range = readonly [start: number, end: number];

export interface PythonTrivia {
  /** `#` comments, from the `#` to the end of the line. */
  readonly comments: Range[];
  /** Statements made only of string literals: docstrings and strings used as comments. */
  readonly stringStatements: Range[];
  /** Every string literal (f-strings whole), prefix and quotes included. */
  readonly strings: Range[];
}

const STRING_START = /(?:[rRuUbBfF]|[bB][rR]|[rR][bB]|[fF][rR]|[rR][fF])?('''|"""|'|")/y;
const MAY_START_STRING = new Set([...'\'"rRuUbBfF']);
const ASCII_WORD = /[A-Za-z0-9_]/;
const WORD = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]+/uy;
/** Lines starting with one of these are compound-statement headers: a string right after their `:` is a statement. */
const HEADERS = new Set([
  'if',
  'elif',
  'else',
  'for',
  'while',
  'with',
  'try',
  'except',
  'finally',
  'def',
  'class',
  'async',
]);
const isBreak = (ch: string | undefined): boolean => ch === '\n' || ch === '\r';

/** Where a run of tokens that may be a string statement starts; `strings` false once anything else joins it. */
interface Segment {
  start: number;
  end: number;
  strings: boolean;
  empty: boolean;
}

class PyScanner {
  private pos = 0;
  private depth = 0;
  private lineFirstWord: string | null = null;
  private lineStarted = false;
  private lambdas = 0;
  private seg: Segment = { start: 0, end: 0, strings: true, empty: true };
  readonly comments: Range[] = [];
  readonly stringStatements: Range[] = [];
  readonly strings: Range[] = [];

  constructor(private readonly code: string) {}

  scan(): PythonTrivia {
    while (this.pos < this.code.length) this.step();
    this.endSegment();
    return { comments: this.comments, stringStatements: this.stringStatements, strings: this.strings };
  }

  private step(): void {
    const ch = this.code[this.pos] as string;
    if (ch === ' ' || ch === '\t' || ch === '\f') this.pos++;
    else if (isBreak(ch)) this.lineBreak();
    else if (ch === '\\' && isBreak(this.code[this.pos + 1]))
      this.pos += this.code.startsWith('\r\n', this.pos + 1) ? 3 : 2;
    else if (ch === '#') this.comment();
    else if (!this.stringAt() && !this.word()) this.operator(ch);
  }

  private lineBreak(): void {
    this.pos += this.code.startsWith('\r\n', this.pos) ? 2 : 1;
    if (this.depth > 0) return;
    this.endSegment();
    this.lineStarted = false;
    this.lineFirstWord = null;
    this.lambdas = 0;
  }

  private comment(): void {
    let end = this.pos;
    while (end < this.code.length && !isBreak(this.code[end])) end++;
    this.comments.push([this.pos, end]);
    this.pos = end;
  }

  private stringAt(): boolean {
    if (!MAY_START_STRING.has(this.code[this.pos] as string)) return false;
    STRING_START.lastIndex = this.pos;
    const m = STRING_START.exec(this.code);
    if (!m) return false;
    const quote = m[1] as string;
    const start = this.pos;
    this.pos =
      quote.length === 3 ? this.tripleEnd(start + m[0].length, quote) : this.singleEnd(start + m[0].length, quote);
    this.strings.push([start, this.pos]);
    this.token(start, true);
    return true;
  }

  private tripleEnd(from: number, quote: string): number {
    for (let i = from; i < this.code.length; i++) {
      if (this.code[i] === '\\') i++;
      else if (this.code.startsWith(quote, i)) return i + 3;
    }
    return this.code.length;
  }

  private singleEnd(from: number, quote: string): number {
    for (let i = from; i < this.code.length; i++) {
      const ch = this.code[i];
      if (ch === '\\') i += this.code.startsWith('\r\n', i + 1) ? 2 : 1;
      else if (ch === quote) return i + 1;
      else if (isBreak(ch)) return i;
    }
    return this.code.length;
  }

  private word(): boolean {
    const start = this.pos;
    let end = start;
    while (end < this.code.length && ASCII_WORD.test(this.code[end] as string)) end++;
    if (end < this.code.length && (this.code.charCodeAt(end) as number) > 127) {
      WORD.lastIndex = start; // identifiers beyond ASCII: the Unicode classes, only where needed
      end = start + (WORD.exec(this.code)?.[0].length ?? 0);
    }
    if (end === start) return false;
    this.pos = end;
    const text = this.lineStarted && this.depth > 0 ? '' : this.code.slice(start, end);
    if (!this.lineStarted) this.lineFirstWord = text;
    if (text === 'lambda' && this.depth === 0) this.lambdas++;
    this.token(start, false);
    return true;
  }

  private operator(ch: string): void {
    const start = this.pos++;
    if (ch === '(' || ch === '[' || ch === '{') this.depth++;
    else if ((ch === ')' || ch === ']' || ch === '}') && this.depth > 0) this.depth--;
    if (this.depth === 0 && ch === ';') return this.boundary();
    if (this.depth === 0 && ch === ':' && this.lineFirstWord !== null && HEADERS.has(this.lineFirstWord)) {
      if (this.lambdas > 0) this.lambdas--;
      else return this.boundary();
    }
    this.token(start, false);
  }

  /** `;` or a header's `:`: what follows starts a new statement. */
  private boundary(): void {
    this.lineStarted = true;
    this.endSegment();
    this.lineFirstWord = '';
  }

  // Mutated in place: a token is the scanner's hottest path, and an object per token kept the GC busy.
  private token(start: number, isString: boolean): void {
    this.lineStarted = true;
    const seg = this.seg;
    if (seg.empty) {
      seg.start = start;
      seg.strings = isString;
      seg.empty = false;
    } else seg.strings &&= isString;
    seg.end = this.pos;
  }

  private endSegment(): void {
    const seg = this.seg;
    if (!seg.empty && seg.strings) this.stringStatements.push([seg.start, seg.end]);
    seg.empty = true;
    seg.strings = true;
  }
}

export const pythonTrivia = (code: string): PythonTrivia => new PyScanner(code).scan();

/** Replaces the ranges' characters (UTF-16 units) with `fill`, keeping line breaks. */
function blank(code: string, ranges: readonly Range[], fill: (range: string) => string): string {
  const parts: string[] = [];
  let done = 0;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const from = Math.max(start, done);
    if (end <= from) continue;
    parts.push(code.slice(done, from), fill(code.slice(from, end)));
    done = end;
  }
  parts.push(code.slice(done));
  return parts.join('');
}

const spaces = (s: string): string => s.replace(/[^\r\n]/g, ' ');

/** The code the judge sees: comments and string statements (docstrings) become spaces. */
export function stripPython(code: string, t: PythonTrivia = pythonTrivia(code)): string {
  return blank(code, [...t.comments, ...t.stringStatements], spaces);
}

/**
 * The code the syntax tree is built from: comments become spaces. tree-sitter's Python scanner looks past
 * comment lines for the next line's indentation from every line break, quadratic in a run of comment lines
 * (10,000 of them: 16 s); blank lines it passes in linear time.
 */
export function blankComments(code: string, t: PythonTrivia = pythonTrivia(code)): string {
  return blank(code, t.comments, spaces);
}

/**
 * The code ruff sees: every comment keeps its `#` and its length but says nothing, so no `# noqa`,
 * `# ruff: noqa` or `# type: ignore` can switch a finding off. Filler, not spaces, so no trailing whitespace
 * appears where a comment was.
 */
export function silenceComments(code: string, t: PythonTrivia = pythonTrivia(code)): string {
  return blank(code, t.comments, (c) => `#${'_'.repeat(c.length - 1)}`);
}

/** Lines holding code once comments and string statements are removed. */
export function pythonCodeLines(code: string, t: PythonTrivia = pythonTrivia(code)): number {
  return stripPython(code, t)
    .split(/\r\n|\r|\n/)
    .filter((l) => l.trim() !== '').length;
}

/** Bytes of code (comments, docstrings and blank lines excluded), as `codeBytes` counts JavaScript. */
export function pythonCodeBytes(code: string, t: PythonTrivia = pythonTrivia(code)): number {
  return stripPython(code, t)
    .split(/\r\n|\r|\n/)
    .reduce((n, line) => {
      const t = line.trim();
      return t === '' ? n : n + Buffer.byteLength(t) + 1;
    }, 0);
}
