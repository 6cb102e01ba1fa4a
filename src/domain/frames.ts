import { z } from 'zod';
import { TestStatusSchema } from './report.js';

// What the in-sandbox harness sends on the authenticated results channel, one schema per frame type.
// Authentication says the harness sent it; these schemas say it is what the grader can interpret.
const testRef = { file: z.string(), index: z.number().int().nonnegative() };
const coded = z.object({ code: z.string(), detail: z.string() });

export const FRAME_DATA = {
  collected: z.object({
    file: z.string(),
    tests: z.array(z.object({ index: z.number().int().nonnegative(), path: z.array(z.string()) })),
    error: z.string().nullable(),
  }),
  /** A test begins; with its own limit and the most its hooks and body may take (the grader's watch, test-watch.ts). */
  start: z.object({
    ...testRef,
    timeoutMs: z.number().positive().optional(),
    budgetMs: z.number().positive().optional(),
  }),
  /** What the running test printed, as it printed it (bounded per test by the harness; `truncated` once cut). */
  output: z.object({ ...testRef, stream: z.enum(['stdout', 'stderr']), text: z.string(), truncated: z.boolean() }),
  result: z.object({
    ...testRef,
    path: z.array(z.string()),
    status: TestStatusSchema,
    durationMs: z.number(),
    message: z.string(),
  }),
  tamper: coded,
  limit: coded,
  note: coded,
  fileError: z.object({ file: z.string(), message: z.string() }),
  /** The submission did not load (its syntax, a missing module or name, an error at its top level): where, and why. */
  loadError: z.object({
    file: z.string().nullable(),
    line: z.number().int().positive().nullable(),
    message: z.string(),
  }),
  fatal: z.object({ message: z.string() }),
  /**
   * A rubric audit's reference run only (payload.coverage): per submission file, the lines a statement starts on and
   * those some hidden test ran; `exact` false when the harness could not map the file's ranges to its lines.
   */
  coverage: z.object({
    files: z.array(
      z.object({
        file: z.string(),
        executable: z.array(z.number().int().positive()),
        hit: z.array(z.number().int().positive()),
        exact: z.boolean(),
      }),
    ),
    /** Why nothing was measured (the harness could not start V8's coverage). */
    error: z.string().optional(),
  }),
  done: z.object({ files: z.number().int().nonnegative() }),
} as const;

export type FrameType = keyof typeof FRAME_DATA;
export type HarnessFrame = {
  [K in FrameType]: { readonly type: K; readonly data: z.infer<(typeof FRAME_DATA)[K]> };
}[FrameType];

const isFrameType = (t: string): t is FrameType => Object.hasOwn(FRAME_DATA, t);

/** The typed frame, or why it cannot be interpreted (an unknown type, or data of the wrong shape). */
export function parseFrame(f: {
  readonly type: string;
  readonly data: unknown;
}): HarnessFrame | { readonly malformed: string } {
  if (!isFrameType(f.type)) return { malformed: `unknown frame type "${f.type.slice(0, 40)}"` };
  const parsed = FRAME_DATA[f.type].safeParse(f.data);
  if (!parsed.success)
    return {
      malformed: `a "${f.type}" frame with ${parsed.error.issues.map((i) => `${i.path.join('.') || 'data'}: ${i.message}`).join('; ')}`,
    };
  return { type: f.type, data: parsed.data } as HarnessFrame;
}
