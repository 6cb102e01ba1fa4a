// What each test printed, from the harness's `output` frames: a test's only between its `start` and its `result`
// (the harness sends none elsewhere), bounded here too. Pure.
import type { HarnessFrame } from '../../domain/frames.js';

/** What a test printed (its own prints and the submission's), bounded per test by the harness. */
export interface TestOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly truncated: boolean;
}

type OutputFrame = Extract<HarnessFrame, { type: 'output' }>['data'];

/** Characters of a test's output kept (the harness cuts at 4096; a grader-side bound all the same). */
const OUTPUT_CAP = 4096;

/** Output is a test's only between its `start` and its `result` (the harness sends it nowhere else). */
export function recordOutput(
  d: OutputFrame,
  started: ReadonlySet<string>,
  results: ReadonlyMap<string, unknown>,
  outputs: Map<string, TestOutput>,
): void {
  const k = `${d.file}#${d.index}`;
  if (!started.has(k) || results.has(k)) return;
  const was = outputs.get(k) ?? { stdout: '', stderr: '', truncated: false };
  const room = OUTPUT_CAP - was.stdout.length - was.stderr.length;
  const text = d.text.slice(0, Math.max(0, room));
  outputs.set(k, {
    ...was,
    [d.stream]: was[d.stream] + text,
    truncated: was.truncated || d.truncated || text.length < d.text.length,
  });
}
