import { z } from 'zod';

/** Bodies of the HTTP API, validated once at the edge; /openapi.json is generated from these. */
export const fileMap = z
  .record(z.string().min(1).max(512), z.string())
  .refine((m) => Object.keys(m).length > 0, { message: 'at least one file is required' })
  .describe('file path (relative, "/" separators) → UTF-8 text');

export const GradeRequestSchema = z
  .object({
    rubric: z.string().min(1).max(64).describe('a rubric id from GET /rubrics'),
    files: fileMap,
    /**
     * Optional name for the report (defaults to "submission"): any printable Unicode name. The report's id is
     * the name when it is ASCII letters, digits, ".", "_" or "-" (at most 64), else a slug and a hash of it.
     */
    id: z.string().min(1).max(200).optional(),
  })
  .strict();
export type GradeRequest = z.infer<typeof GradeRequestSchema>;

export const BatchRequestSchema = z
  .object({
    rubric: z.string().min(1).max(64),
    submissions: z
      .array(
        z
          .object({
            id: z
              .string()
              .min(1)
              .max(200)
              .describe("the submission's name (any printable Unicode; see POST /grade id)"),
            files: fileMap,
          })
          .strict(),
      )
      .min(1)
      .max(5000)
      .refine((l) => new Set(l.map((s) => s.id)).size === l.length, { message: 'submission ids must be unique' }),
  })
  .strict();
export type BatchRequest = z.infer<typeof BatchRequestSchema>;

export const ErrorBodySchema = z
  .object({
    error: z
      .object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() })
      .strict(),
  })
  .strict();

export const BatchStatusSchema = z
  .object({
    id: z.string(),
    rubric: z.string(),
    state: z.enum(['running', 'done']),
    total: z.number().int(),
    done: z.number().int(),
    submissions: z.array(
      z
        .object({
          id: z.string(),
          /** The submission's own name when it differs from the id (o'brien, José Núñez). */
          name: z.string().optional(),
          status: z.string().nullable(),
          final: z.number().nullable(),
        })
        .strict(),
    ),
    createdAt: z.string(),
  })
  .strict();
export type BatchStatus = z.infer<typeof BatchStatusSchema>;
