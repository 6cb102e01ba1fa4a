import { z } from 'zod';

/**
 * What a student may see of one test. `visible`: its name, message (the diff) and the student's own output;
 * `hidden`: a neutral title ("hidden test 3", or the instructor's) and its outcome, nothing else;
 * `after_due`: shown as `hidden` until the instructor releases it, then as `visible`.
 */
export const TEST_VISIBILITY = ['visible', 'hidden', 'after_due'] as const;
export type TestVisibility = (typeof TEST_VISIBILITY)[number];

const title = z.string().trim().min(1).max(200);
/** One rule of the rubric's `visibility` map: a level, or a level with the title students read. */
export const VisibilityRuleSchema = z.union(
  [z.enum(TEST_VISIBILITY), z.object({ show: z.enum(TEST_VISIBILITY), title: title.optional() }).strict()],
  {
    error: (iss) =>
      typeof iss.input === 'string'
        ? `expected one of "visible"|"hidden"|"after_due", or { show, title }, got "${iss.input}"`
        : undefined,
  },
);
export type VisibilityRule = z.infer<typeof VisibilityRuleSchema>;

/**
 * Rubric keys `visibility` and `hint`: selectors (a test file, a describe path or pytest class, a test) to a
 * level or a hint. The most specific selector wins (a test name over a group, a longer group over a shorter
 * one, any of them over a file); a test no selector matches is `hidden`.
 */
export const VisibilityMapSchema = z.record(z.string().min(1), VisibilityRuleSchema);
export const HintMapSchema = z.record(z.string().min(1), z.string().trim().min(1).max(2_000));

/** Rubric key `student`: what the student view shows as a whole. */
export const StudentPolicySchema = z
  .object({
    /** Hide every score while a graded `after_due` test is unreleased (Gradescope's rule), or never. */
    hide_total: z.enum(['while_unreleased', 'never']).default('while_unreleased'),
    /** When `after_due` tests are released (ISO 8601 with a zone); `report --for students --release` releases them too. */
    release_at: z.string().datetime({ offset: true }).optional(),
  })
  .strict();
export type StudentPolicy = z.infer<typeof StudentPolicySchema>;

/** What a report records of the policy for one test (resolved when it was graded). */
export const TestPolicySchema = z
  .object({ visibility: z.enum(TEST_VISIBILITY), title: title.optional(), hint: z.string().optional() })
  .strict();
export type TestPolicy = z.infer<typeof TestPolicySchema>;
