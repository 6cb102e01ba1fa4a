import { z } from 'zod';
import { TestStatusSchema } from './report.js';

const bounded = (n: number) => z.string().max(n);
export const StudentTestSchema = z
  .object({
    number: z.number().int().positive(),
    title: bounded(400),
    shown: z.enum(['visible', 'hidden']),
    status: TestStatusSchema,
    points: z.number().nonnegative().nullable(),
    maxPoints: z.number().nonnegative().nullable(),
    /** Visible tests only: the failure (diff included), with frames into anything but the student's files removed. */
    message: bounded(8_000).nullable(),
    /** The instructor's hint, when the test did not pass. */
    hint: bounded(2_000).nullable(),
    /**
     * Visible tests only: what the test printed (the student's own prints among them), bounded, frames into anything
     * but the student's files removed; null when it printed nothing, or when it quotes a hidden test.
     */
    output: z
      .object({
        stdout: bounded(4_096),
        stderr: bounded(4_096),
        truncated: z.boolean(),
        withheld: bounded(200).nullable(),
      })
      .strict()
      .nullable()
      .optional(),
  })
  .strict();
export type StudentTest = z.infer<typeof StudentTestSchema>;

const score = z.number().min(0).max(10).nullable();
/** A student's view of one report: only what the policy lets that student see (built by stages/student-view.ts). */
export const StudentReportSchema = z
  .object({
    kind: z.literal('evigrade-student-report'),
    schemaVersion: z.literal(1),
    assignment: z.object({ title: z.string() }).strict(),
    submission: z.object({ id: z.string(), name: z.string().optional(), files: z.array(z.string()) }).strict(),
    status: z.enum(['graded', 'rejected', 'error']),
    /** Why the submission was not graded, in words about the student's own files (rejected), or a neutral line. */
    notice: z.string().nullable(),
    scores: z
      .object({ final: score, correctness: score, edge_cases: score, style: score, complexity: score })
      .strict()
      .nullable(),
    /** Why the scores are not shown (the policy), when they are not. */
    scoresWithheld: z.string().nullable(),
    tests: z.array(StudentTestSchema),
    /** What stopped the code (time, memory, output limits, a crash), in fixed words. */
    events: z.array(z.object({ kind: z.string(), text: z.string() }).strict()),
    lint: z.array(
      z
        .object({
          file: z.string(),
          line: z.number().int(),
          column: z.number().int(),
          rule: z.string(),
          severity: z.enum(['error', 'warning']),
          message: z.string(),
        })
        .strict(),
    ),
    functions: z.array(
      z
        .object({
          file: z.string(),
          name: z.string(),
          line: z.number().int(),
          cyclomatic: z.number().int(),
          maxLoopNesting: z.number().int(),
          overLimit: z.boolean(),
        })
        .strict(),
    ),
    /** The reviewer's comments: only when the auditor found nothing and they quote nothing hidden. */
    comments: z
      .object({
        summary: z.string(),
        points: z.array(z.object({ polarity: z.enum(['strength', 'weakness']), text: z.string() }).strict()).max(20),
      })
      .strict()
      .nullable(),
    commentsWithheld: z.string().nullable(),
  })
  .strict();
export type StudentReport = z.infer<typeof StudentReportSchema>;
