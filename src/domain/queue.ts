import { z } from 'zod';
import { fileMap } from './api.js';
import { ErrorCodeSchema } from './errors.js';
import { isSubmissionId } from './submission.js';

/**
 * What travels through the job queue. The queue is a trust boundary in both
 * directions (anyone with Redis access can write to it), so workers validate
 * job data with these schemas — the file map is the HTTP API's own — and
 * submitters validate what comes back with ReportSchema.
 */
const sha = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex');

export const ExpectedTestSchema = z
  .object({
    file: z.string().min(1).max(512),
    index: z.number().int().min(0),
    path: z.array(z.string().max(4096)).min(1).max(64),
  })
  .strict();
/** A test the grader knows must report: collected from the hidden tests alone (file, index, describe path). */
export type ExpectedTest = Readonly<z.infer<typeof ExpectedTestSchema>>;

/** A rubric, stored once per content hash; the worker rebuilds it and checks the hash. */
export const RubricWireSchema = z
  .object({
    v: z.literal(1),
    sha256: sha,
    spec: z.record(z.string(), z.unknown()),
    tests: z
      .array(z.object({ name: z.string().min(1).max(255), source: z.string().max(4 * 1024 * 1024) }).strict())
      .min(1)
      .max(64),
  })
  .strict();
export type RubricWire = z.infer<typeof RubricWireSchema>;

export const CollectJobSchema = z.object({ v: z.literal(1), rubric: sha }).strict();

export const GradeJobSchema = z
  .object({
    v: z.literal(1),
    rubric: sha,
    expected: z.array(ExpectedTestSchema).min(1).max(10_000),
    submission: z
      .object({
        /** Intake's safe id (stages/intake/intake-names.ts); the name travels beside it, for the report. */
        id: z.string().refine(isSubmissionId, 'not a submission id'),
        name: z.string().min(1).max(800).optional(),
        sha256: sha,
        files: fileMap,
        ignored: z.array(z.string().max(1024)).max(10_000),
      })
      .strict(),
  })
  .strict();
export type GradeJobData = z.infer<typeof GradeJobSchema>;

/** A worker's failure, as the job's failure reason: the error code travels with it. */
export const JobFailureSchema = z.object({ code: ErrorCodeSchema, message: z.string(), backend: z.string() }).strict();
export type JobFailure = z.infer<typeof JobFailureSchema>;
