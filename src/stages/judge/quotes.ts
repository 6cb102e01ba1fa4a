// The auditor's check of a quote: the text a judge says supports a rubric item must be in the submission, at
// the lines it names, in the code it was shown (comments removed, the same line numbers). Whitespace runs count
// as one space; the judge may copy our `12| ` line prefixes along. A quote that lies wholly inside string
// literals shows what the program says, never what it does: it cannot support an item about behaviour.
import type { CodeQuote, Quote } from '../../domain/judge.js';
import type { ShownFile } from './shown.js';

type Span = readonly [start: number, end: number];

export type QuoteCheck = { ok: true } | { ok: false; reason: string };

interface Token {
  readonly text: string;
  readonly start: number;
}

const tokens = (s: string, base = 0): Token[] =>
  [...s.matchAll(/\S+/g)].map((m) => ({ text: m[0], start: base + m.index }));

/** The judge's quote as code: our line prefixes and our neutralised fences undone, whitespace split. */
function quoteTokens(text: string): string[] {
  const unprefixed = text
    .split(/\r\n|\r|\n/)
    .map((l) => l.replace(/^\s*\d+\| ?/, ''))
    .join('\n')
    .replace(/<< </g, '<<<')
    .replace(/> >>/g, '>>>');
  return tokens(unprefixed).map((t) => t.text);
}

/** Where the quote's tokens occur in a row within [from, to) of the file: the first may start mid-token, the last end mid-token. */
function locate(file: ShownFile, from: number, to: number, want: readonly string[]): Span | null {
  const have = tokens(file.text.slice(from, to), from);
  const n = want.length;
  for (let i = 0; i + n <= have.length; i++) {
    const ok = want.every((w, k) => {
      const h = (have[i + k] as Token).text;
      if (n === 1) return h.includes(w);
      if (k === 0) return h.endsWith(w);
      if (k === n - 1) return h.startsWith(w);
      return h === w;
    });
    if (!ok) continue;
    const first = have[i] as Token;
    const last = have[i + n - 1] as Token;
    const start =
      first.start + (n === 1 ? first.text.indexOf(want[0] as string) : first.text.length - (want[0] as string).length);
    const end = n === 1 ? start + (want[0] as string).length : last.start + (want[n - 1] as string).length;
    return [start, end];
  }
  return null;
}

/** Is every non-space character of the span inside some string literal? */
function insideStrings(file: ShownFile, [start, end]: Span): boolean {
  for (let i = start; i < end; i++) {
    if (/\s/.test(file.text[i] as string)) continue;
    if (!file.strings.some(([s, e]) => i >= s && i < e)) return false;
  }
  return true;
}

function checkCode(q: CodeQuote, files: readonly ShownFile[], about: 'behaviour' | 'text'): QuoteCheck {
  const file = files.find((f) => f.path === q.file);
  if (!file) return { ok: false, reason: `no file ${JSON.stringify(q.file)} was shown` };
  const lines = file.lineStarts.length;
  if (q.start_line > q.end_line) return { ok: false, reason: `lines ${q.start_line}–${q.end_line} run backwards` };
  if (q.end_line > lines)
    return { ok: false, reason: `${q.file} has ${lines} lines; the quote names ${q.start_line}–${q.end_line}` };
  const want = quoteTokens(q.text);
  if (want.length === 0) return { ok: false, reason: 'the quote is empty' };
  const from = file.lineStarts[q.start_line - 1] as number;
  const to = q.end_line < lines ? (file.lineStarts[q.end_line] as number) : file.text.length;
  const span = locate(file, from, to, want);
  if (!span) {
    const elsewhere = locate(file, 0, file.text.length, want) !== null;
    return {
      ok: false,
      reason: elsewhere
        ? `the text is in ${q.file}, but not at lines ${q.start_line}–${q.end_line}`
        : `the text is not in ${q.file} (comments removed)`,
    };
  }
  if (about === 'behaviour' && insideStrings(file, span))
    return { ok: false, reason: 'it quotes a string literal, which says something but does nothing' };
  return { ok: true };
}

/** One quote against what the judge was shown and the evidence ids that exist. Pure. */
export function checkQuote(
  q: Quote,
  files: readonly ShownFile[],
  evidenceIds: ReadonlySet<string>,
  about: 'behaviour' | 'text',
): QuoteCheck {
  if ('evidence' in q)
    return evidenceIds.has(q.evidence) ? { ok: true } : { ok: false, reason: `evidence ${q.evidence} does not exist` };
  return checkCode(q, files, about);
}
