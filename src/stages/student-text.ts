import type { TestResult } from '../domain/report.js';

// Text a student may read: a visible test's failure message without the grader's frames, and the check that
// keeps the reviewer's comments out of the student view when they quote a hidden test. Pure.

const MAX_MESSAGE = 8_000;
/** `/job/sub/<path>:<line>[:<col>]` (Node, with or without file://) or Python's `File "/job/sub/<path>", line N`. */
const FRAME = /(?:file:\/\/)?\/job\/sub\/([^\s:()'"]+):(\d+)(?::\d+)?|File "\/job\/sub\/([^"]+)", line (\d+)/g;
const NODE_FRAME_LINE = /^\s*at\s/;
const PY_FRAME_LINE = /^(\s*)File "/;
// Escape sequences and control characters (a student's output can carry them), except newline and tab.
// eslint-disable-next-line no-control-regex
const CONTROLS = /\u001b\[[0-9;?]*[ -/]*[@-~]|[\u0000-\u0008\u000b-\u001f\u007f]/g;

const indent = (line: string): number => line.length - line.trimStart().length;

/** A frame's position when it points into the student's own files, else null. */
function ownFrame(line: string, files: ReadonlySet<string>): string | null {
  for (const m of line.matchAll(FRAME)) {
    const path = m[1] ?? m[3] ?? '';
    if (files.has(path)) return `${path}:${m[2] ?? m[4]}`;
  }
  return null;
}

/**
 * A visible test's message for its student: stack frames into the student's files become `at <file>:<line>`;
 * frames into anything else (the tests, the harness) are dropped, with the source lines Python prints under
 * them; any other grader path reads `(test code)`. Bounded.
 */
export function studentMessage(message: string, files: ReadonlySet<string>): string {
  const out: string[] = [];
  let skipBelow = -1; // drop the lines indented deeper than a dropped Python frame (its source line, its ^^^)
  for (const raw of message.replace(CONTROLS, '').split('\n')) {
    if (skipBelow >= 0 && raw.trim() !== '' && indent(raw) > skipBelow) continue;
    skipBelow = -1;
    const py = PY_FRAME_LINE.exec(raw);
    if (py || NODE_FRAME_LINE.test(raw)) {
      const own = ownFrame(raw, files);
      if (own) out.push(`${' '.repeat(indent(raw))}at ${own}`);
      else if (py) skipBelow = indent(raw);
      continue;
    }
    out.push(
      raw
        .replace(FRAME, (_m, a?: string, l1?: string, b?: string, l2?: string) => {
          const path = a ?? b ?? '';
          return files.has(path) ? `${path}:${l1 ?? l2}` : '(test code)';
        })
        .replace(/(?:file:\/\/)?\/job\/[^\s'")]*/g, '(test code)'),
    );
  }
  const text = out.join('\n').trimEnd();
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}

/** Lower case, compatibility forms folded, quotes dropped, whitespace collapsed: what formatting cannot change. */
export const foldText = (s: string): string =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[`'"\u2018\u2019\u201c\u201d]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** Does a text quote a hidden test: its name, a describe title, or a line of its failure message (the expected value)? */
export function quotesHidden(text: string, hidden: readonly TestResult[]): boolean {
  const t = foldText(text);
  return hidden.some((h) => {
    const needles = [h.name, ...h.path, ...h.message.split('\n')].map(foldText);
    return needles.some((n) => n.length >= 8 && t.includes(n));
  });
}
