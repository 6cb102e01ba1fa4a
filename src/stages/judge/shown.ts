// A submission's file as the judge is shown it: comments (and Python docstrings) blanked with positions kept,
// the offsets of its lines, and where its string literals lie. Made once per file and used by the prompt (which
// numbers its lines), the injection detector (which names a finding's line) and the quote check (which finds
// the lines a judge cites), so the three can never disagree about what line 12 is.
import type { SubmissionFile } from '../../domain/submission.js';
import { pythonTrivia, stripPython } from '../analysis/python-source.js';
import { jsStringRanges, stripComments } from '../analysis/strip-comments.js';

type Span = readonly [start: number, end: number];

export interface ShownFile {
  readonly path: string;
  readonly text: string;
  /** The offset each line starts at: line n (1-based) starts at lineStarts[n - 1]. */
  readonly lineStarts: readonly number[];
  readonly strings: readonly Span[];
}

const NEWLINE = /\r\n|\r|\n/g;

export function shownFile(f: Pick<SubmissionFile, 'path' | 'content'>): ShownFile {
  const py = f.path.endsWith('.py');
  const text = py ? stripPython(f.content) : stripComments(f.content);
  const lineStarts = [0];
  for (const m of text.matchAll(NEWLINE)) lineStarts.push(m.index + m[0].length);
  return { path: f.path, text, lineStarts, strings: py ? pythonTrivia(text).strings : jsStringRanges(text) };
}

/** The 1-based line of an offset, by binary search over the line starts (linear overall in a file of many lines). */
export function lineOf(file: ShownFile, offset: number): number {
  const starts = file.lineStarts;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** What the prompt prints for a file: each line numbered, so quotes can name their lines. */
export function numberedLines(file: ShownFile): string {
  const { text, lineStarts } = file;
  return lineStarts
    .map((start, i) => {
      const next = lineStarts[i + 1];
      const line = text.slice(start, next === undefined ? text.length : next).replace(/\r?\n$|\r$/, '');
      return `${String(i + 1).padStart(4)}| ${line}`;
    })
    .join('\n');
}
