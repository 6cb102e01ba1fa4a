import { z } from 'zod';

import { LMS_SYSTEMS, LMS_TARGETS, type ATTEMPT_CHOICES } from './choices.js';

export { LMS_SYSTEMS, LMS_TARGETS };
export type LmsSystem = (typeof LMS_SYSTEMS)[number];
export type LmsTarget = (typeof LMS_TARGETS)[number];

/**
 * Who a submission belongs to in the LMS it came from, as the download names
 * them: what `report --to` needs to write a row the LMS takes back.
 */
export const LmsIdentitySchema = z
  .object({
    system: z.enum(LMS_SYSTEMS),
    /** The LMS's own key for the student: Canvas user id, Moodle participant id, Blackboard username, Gradescope SID (or email). */
    userId: z.string().min(1),
    name: z.string(),
    /** 1-based attempt number where the download tells attempts apart (Blackboard); null otherwise. */
    attempt: z.number().int().positive().nullable(),
    /** Marked late by the LMS (Canvas `LATE_`); null where the download does not say. */
    late: z.boolean().nullable(),
    /** When the LMS says it was submitted, as written there; null where it does not say. */
    submittedAt: z.string().nullable(),
    /** The LMS's submission id where it has one (Canvas, Gradescope). */
    submissionId: z.string().nullable(),
  })
  .strict();
export type LmsIdentity = z.infer<typeof LmsIdentitySchema>;

/** `--attempts`: the latest attempt per student, or every attempt as its own submission. */
export type AttemptChoice = (typeof ATTEMPT_CHOICES)[number];

/** One entry of an archive or download folder, before any LMS naming is undone. */
export interface RawEntry {
  /** `/`-separated, relative, no `.`/`..` segments (checked on the way in). */
  readonly path: string;
  /** Links and devices are kept as such (no data): they reject the submission they land in. */
  readonly kind: 'file' | 'symlink' | 'hardlink' | 'special';
  readonly data: Buffer;
}
