// Removes comments from JavaScript/TypeScript source while keeping every
// offset, line and column of the remaining code: each comment character
// becomes a space and every line break stays. A leading hashbang (`#!...`)
// is blanked too: it is an interpreter directive, not code a grader reads.
//
// Comment ranges come from the parser, which knows strings, templates and
// regex literals exactly. Code that does not parse (the case a grader meets
// most with student work) goes through a hand-written scanner instead.
import { estree } from './estree.js';

// The parser (and the TypeScript it loads) only when comments are stripped for the judge's prompt.
const parse: ReturnType<typeof estree>['parse'] = (code, opts) => estree().parse(code, opts);

type Range = readonly [start: number, end: number];

const LINE_BREAK = /[\r\n\u2028\u2029]/;

export function stripComments(code: string): string {
  return blank(code, [...hashbang(code), ...(parsedComments(code) ?? new Scanner(code).comments())]);
}

/**
 * Where the string literals and template text of JavaScript/TypeScript code are (the tolerant scanner, so
 * code that does not parse has them too): text there is data the code carries, never what it does.
 */
export function jsStringRanges(code: string): (readonly [start: number, end: number])[] {
  const s = new Scanner(code);
  s.comments();
  return s.strings;
}

/**
 * The bytes of code a file holds, comments and blank lines excluded (each kept line counted trimmed, plus
 * its line break): what analysis size limits count, so a long comment can neither push a file past them
 * nor buy a file room under them. The scanner alone decides (linear time, never the parser).
 */
export function codeBytes(code: string): number {
  const lines = blank(code, [...hashbang(code), ...new Scanner(code).comments()]).split(/\r\n|[\r\n\u2028\u2029]/);
  return lines.reduce((n, line) => {
    const t = line.trim();
    return t === '' ? n : n + Buffer.byteLength(t) + 1;
  }, 0);
}

/** Comment ranges (`[start, end)` in UTF-16 units) by the scanner alone: linear, never the parser. */
export const scannedComments = (code: string): readonly Range[] => new Scanner(code).comments();

/** Comment ranges from the parser, or null when it cannot parse the code (or overflows the stack doing so). */
function parsedComments(code: string): Range[] | null {
  try {
    return (parse(code, { comment: true, range: true, loc: false, jsx: false }).comments ?? []).map((c) => c.range);
  } catch {
    return null;
  }
}

function hashbang(code: string): Range[] {
  return code.startsWith('#!') ? [[0, lineEnd(code, 0)]] : [];
}

/** Offset of the first line break at or after `from`, or the end of the code. */
function lineEnd(code: string, from: number): number {
  const re = /[\r\n\u2028\u2029]/g;
  re.lastIndex = from;
  return re.exec(code)?.index ?? code.length;
}

/** Replaces the ranges' characters (UTF-16 units, as columns count them) with spaces, keeping line breaks. */
function blank(code: string, ranges: Range[]): string {
  const parts: string[] = [];
  let done = 0;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const from = Math.max(start, done); // tolerate overlaps, e.g. a hashbang the parser also reported
    if (end <= from) continue;
    parts.push(code.slice(done, from), code.slice(from, end).replace(/[^\r\n\u2028\u2029]/g, ' '));
    done = end;
  }
  parts.push(code.slice(done));
  return parts.join('');
}

// Words after which a `/` starts a regex literal rather than dividing.
const WORD = /[\w$\u0080-\uffff]+/y; // identifiers, keywords and numbers alike
const KEYWORDS_BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

/**
 * A tolerant tokenizer for code the parser rejects. It only needs to tell
 * comments from strings, template literals (with `${}` nesting) and regex
 * literals. A regex is assumed wherever an expression may start, judged by
 * the previous token: after `)` and `]`, values, and `++`/`--` a `/` divides;
 * after `}` it starts a regex (a block usually ends there). A misjudged regex
 * stops at the end of its line, so an error cannot swallow the rest of the
 * file. Unterminated strings end at their line break, unterminated block
 * comments and templates at the end of the file.
 */
class Scanner {
  private pos = 0;
  private regexAllowed = true;
  /** One entry per open `${`: how many `{` inside it are still open. */
  private readonly templateBraces: number[] = [];
  private readonly found: Range[] = [];
  /** String literals and template text (quotes and backticks included, `${…}` code excluded). */
  readonly strings: Range[] = [];

  constructor(private readonly code: string) {}

  comments(): Range[] {
    if (this.code.startsWith('#!')) this.pos = lineEnd(this.code, 0); // blanked by the caller
    while (this.pos < this.code.length) this.step();
    return this.found;
  }

  private step(): void {
    const ch = this.code[this.pos] as string;
    const next = this.code[this.pos + 1];
    if (/\s/.test(ch)) this.pos++;
    else if (ch === '/' && next === '/') this.lineComment();
    else if (ch === '/' && next === '*') this.blockComment();
    else if (ch === '/') this.slash();
    else if (ch === '"' || ch === "'") this.string(ch);
    else if (ch === '`') this.template(this.pos + 1);
    else if (ch === '{' || ch === '}') this.brace(ch);
    else if (/[\w$\u0080-\uffff]/.test(ch)) this.word();
    else this.punctuator(ch, next);
  }

  private lineComment(): void {
    const end = lineEnd(this.code, this.pos);
    this.found.push([this.pos, end]);
    this.pos = end;
  }

  private blockComment(): void {
    const close = this.code.indexOf('*/', this.pos + 2);
    const end = close === -1 ? this.code.length : close + 2;
    this.found.push([this.pos, end]);
    this.pos = end;
  }

  private slash(): void {
    if (!this.regexAllowed) {
      this.pos++;
      this.regexAllowed = true;
      return;
    }
    let inClass = false;
    let i = this.pos + 1;
    for (; i < this.code.length; i++) {
      const ch = this.code[i] as string;
      if (LINE_BREAK.test(ch)) break;
      if (ch === '\\') i++;
      else if (ch === '[') inClass = true;
      else if (ch === ']') inClass = false;
      else if (ch === '/' && !inClass) {
        i++;
        break;
      }
    }
    this.pos = i;
    this.regexAllowed = false;
  }

  private string(quote: string): void {
    let i = this.pos + 1;
    for (; i < this.code.length; i++) {
      const ch = this.code[i] as string;
      if (ch === '\\') i += this.code.startsWith('\r\n', i + 1) ? 2 : 1;
      else if (ch === quote) {
        i++;
        break;
      } else if (LINE_BREAK.test(ch)) break;
    }
    this.strings.push([this.pos, Math.min(i, this.code.length)]);
    this.pos = i;
    this.regexAllowed = false;
  }

  /** Scans template text from `from` up to its closing backtick or the next `${`. */
  private template(from: number): void {
    for (let i = from; i < this.code.length; i++) {
      const ch = this.code[i];
      if (ch === '\\') i++;
      else if (ch === '`') {
        this.strings.push([from - 1, i + 1]);
        this.pos = i + 1;
        this.regexAllowed = false;
        return;
      } else if (ch === '$' && this.code[i + 1] === '{') {
        this.strings.push([from - 1, i]);
        this.templateBraces.push(0);
        this.pos = i + 2;
        this.regexAllowed = true;
        return;
      }
    }
    this.strings.push([from - 1, this.code.length]);
    this.pos = this.code.length;
  }

  private brace(ch: '{' | '}'): void {
    const depth = this.templateBraces.length - 1;
    const open = this.templateBraces[depth];
    if (ch === '}' && open === 0) {
      this.templateBraces.pop(); // closes a `${`: back to template text
      this.template(this.pos + 1);
      return;
    }
    if (open !== undefined) this.templateBraces[depth] = open + (ch === '{' ? 1 : -1);
    this.pos++;
    this.regexAllowed = true;
  }

  private word(): void {
    WORD.lastIndex = this.pos;
    const text = WORD.exec(this.code)?.[0] ?? (this.code[this.pos] as string);
    this.pos += text.length;
    this.regexAllowed = KEYWORDS_BEFORE_EXPRESSION.has(text);
  }

  private punctuator(ch: string, next: string | undefined): void {
    if ((ch === '+' || ch === '-') && next === ch) {
      this.pos += 2; // `i++ / 2` divides
      this.regexAllowed = false;
      return;
    }
    this.pos++;
    this.regexAllowed = ch !== ')' && ch !== ']';
  }
}
