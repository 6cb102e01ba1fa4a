/**
 * Stack frames in a test's message, as the grader's job saw them (`/job/sub/<path>:<line>:<col>`, with or
 * without `file://`, or Python's `File "/job/sub/<path>", line N`). Frames into the student's own files
 * become links to their lines; frames into anything else (the hidden test files, the harness) never reach
 * the page: a student must not learn the tests' paths, and an instructor reads the test's name instead. Pure.
 */
export type Segment =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'frame'; readonly path: string; readonly line: number; readonly text: string };

const FRAME = /(?:file:\/\/)?\/job\/sub\/([^\s:()'"]+):(\d+)(?::\d+)?|File "\/job\/sub\/([^"]+)", line (\d+)/g;
/** A stack-frame line: Node's `    at …` or Python's `  File "…", line N`. */
const FRAME_LINE = /^\s*(?:at\s|File ")/;

/**
 * The message as text and student frames. A frame line with no frame into the student's files (a frame
 * into the hidden tests or the harness) is dropped; the first such line is replaced by one naming the test
 * (`  in the test “<name>”`). Elsewhere a frame outside the student's files reads `(hidden test)`.
 */
export function splitMessage(message: string, studentFiles: ReadonlySet<string>, testName: string): Segment[] {
  const out: Segment[] = [];
  let named = false;
  const text = (t: string): void => {
    const last = out[out.length - 1];
    if (last && last.kind === 'text') out[out.length - 1] = { kind: 'text', text: last.text + t };
    else if (t) out.push({ kind: 'text', text: t });
  };
  message.split('\n').forEach((line, k) => {
    const frames = [...line.matchAll(FRAME)].map((m) => ({ m, path: m[1] ?? m[3] ?? '', line: Number(m[2] ?? m[4]) }));
    const own = frames.filter((f) => studentFiles.has(f.path));
    const nl = k ? '\n' : '';
    if (FRAME_LINE.test(line) && !own.length) {
      if (!named)
        text(`${nl}${line.slice(0, line.length - line.trimStart().length)}in the test \u201C${testName}\u201D`);
      named = true;
      return;
    }
    text(nl);
    let at = 0;
    for (const f of frames) {
      const idx = f.m.index ?? 0;
      text(line.slice(at, idx));
      if (studentFiles.has(f.path))
        out.push({ kind: 'frame', path: f.path, line: f.line, text: `${f.path}:${f.line}` });
      else text('(hidden test)');
      at = idx + f.m[0].length;
    }
    text(line.slice(at));
  });
  return out;
}

/** The student's lines a message's frames point at (first occurrence order, no repeats). */
export function studentLines(message: string, studentFiles: ReadonlySet<string>): { path: string; line: number }[] {
  const seen = new Set<string>();
  const out: { path: string; line: number }[] = [];
  for (const s of splitMessage(message, studentFiles, '')) {
    if (s.kind !== 'frame' || seen.has(`${s.path}:${s.line}`)) continue;
    seen.add(`${s.path}:${s.line}`);
    out.push({ path: s.path, line: s.line });
  }
  return out;
}
