import type { TestResult } from '../../domain/report.js';

// Text a student may read: a visible test's failure message without the grader's frames, and the check that
// keeps the reviewer's comments out of the student view when they quote a hidden test. Pure.

const MAX_MESSAGE = 8_000;
/** `/job/sub/<path>:<line>[:<col>]` (Node, with or without file://) or Python's `File "/job/sub/<path>", line N`. */
const FRAME = /(?:file:\/\/)?\/job\/sub\/([^\s:()'"]+):(\d+)(?::\d+)?|File "\/job\/sub\/([^"]+)", line (\d+)/g;
/** A Node stack-frame line, also inside Jest's diff (`+   at f (file:1:2)`): `at …` ending in a position. */
const NODE_FRAME_LINE = /^[+-]?\s*at\s.*(?:\d+:\d+\)?|\(<anonymous>\)|\(native\))\s*$/;
/** Paths into the grader's job folder, its harness or Node's internals. */
const GRADER_PATH = /(?:file:\/\/)?(?:\/job\/|\/evigrade\/|node:internal\/)[^\s'")]*/g;
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

/** pytest's long traceback: `path:line: in function` at the start of a line, its source lines indented below. */
const PYTEST_FRAME_LINE = /^(?:\/job\/sub\/)?([^\s:][^:]*):(\d+): in \S/;

/**
 * A frame line kept as the student's own (`at <file>:<line>`, or pytest's line as it is), dropped (a frame
 * into the tests, the harness, pytest or Python's import machinery: `skip` then drops the lines indented
 * below it, which are that code's source), or not a frame at all (null).
 */
function frameLine(raw: string, files: ReadonlySet<string>): { keep: string | null; skip: boolean } | null {
  const pytest = PYTEST_FRAME_LINE.exec(raw);
  if (pytest)
    return files.has(pytest[1] as string)
      ? { keep: raw.replace('/job/sub/', ''), skip: false }
      : { keep: null, skip: true };
  const py = PY_FRAME_LINE.test(raw);
  if (!py && !NODE_FRAME_LINE.test(raw)) return null;
  const own = ownFrame(raw, files);
  if (own) return { keep: `${/^[+-]/.test(raw) ? `${raw[0] as string} ` : ''}  at ${own}`, skip: false };
  return { keep: null, skip: py };
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
    const frame = frameLine(raw, files);
    if (frame) {
      if (frame.keep !== null) out.push(frame.keep);
      if (frame.skip) skipBelow = indent(raw);
      continue;
    }
    out.push(
      raw
        .replace(FRAME, (_m, a?: string, l1?: string, b?: string, l2?: string) => {
          const path = a ?? b ?? '';
          return files.has(path) ? `${path}:${l1 ?? l2}` : '(test code)';
        })
        .replace(GRADER_PATH, '(test code)'),
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
