import { z } from 'zod';
import { CRITERIA, QuoteSchema } from './judge.js';

export {
  CodeQuoteSchema,
  ItemAnswerSchema,
  QuoteSchema,
  type CodeQuote,
  type ItemAnswer,
  type Quote,
} from './judge.js';

// Rubric items: instructor-written statements ("solves it recursively") the judge answers per item with quoted
// code; the auditor checks every quote and code, never the model, turns answers into points.

export const ITEM_ID = /^[a-z][a-z0-9_]{0,47}$/;

export const RubricItemSchema = z
  .object({
    id: z.string().regex(ITEM_ID, 'lowercase letters, digits and "_", starting with a letter (≤ 48)'),
    description: z.string().min(1).max(300),
    /** Points on the 0–10 scale of its criterion (or of the final score when the item has no criterion); negative for a deduction. */
    points: z
      .number()
      .min(-10)
      .max(10)
      .refine((p) => p !== 0, 'an item worth 0 points changes nothing: give it points or remove it'),
    /** The criterion whose score the points move; absent: the item is its own bucket, on the final score. */
    criterion: z.enum(CRITERIA).optional(),
    /** What the model is told about how to decide, beside the description. */
    guidance: z.string().min(1).max(600).optional(),
    /**
     * `behaviour` (default): only code can support the item, so a quote inside a string literal does not count.
     * `text`: the item is about what the program says (messages, output), so quoted string literals count.
     */
    about: z.enum(['behaviour', 'text']).default('behaviour'),
  })
  .strict();
export type RubricItem = z.infer<typeof RubricItemSchema>;

export const ItemsSchema = z
  .array(RubricItemSchema)
  .max(30)
  .superRefine((items, ctx) => {
    const seen = new Set<string>();
    items.forEach((it, i) => {
      if (seen.has(it.id))
        ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `item id "${it.id}" is used twice` });
      seen.add(it.id);
    });
  });

/** An instructor's decision on an item: it wins over the judge, and a regrade keeps it. */
export const ItemOverrideSchema = z
  .object({
    item: z.string().regex(ITEM_ID),
    applies: z.boolean(),
    by: z.string().min(1).max(200),
    why: z.string().min(1).max(2000),
    at: z.string(),
  })
  .strict();
export type ItemOverride = z.infer<typeof ItemOverrideSchema>;

export const ITEM_DECISIONS = [
  /** Verified: the judge said it applies and at least one quote checks out. */
  'applies',
  'does_not_apply',
  /** The judge said so, or said it applies without a valid quote, or its samples disagreed. */
  'insufficient_evidence',
  /** A quote the judge gave is fabricated or misplaced (judge.bad_quote): the item counts for nothing. */
  'void',
  /** No judge answer could be used (skipped, failed, or the LLM weight is 0). */
  'not_assessed',
] as const;
export type ItemDecision = (typeof ITEM_DECISIONS)[number];

export const ItemResultSchema = z
  .object({
    id: z.string(),
    description: z.string(),
    criterion: z.enum(CRITERIA).nullable(),
    points: z.number(),
    about: z.enum(['behaviour', 'text']),
    decision: z.enum(ITEM_DECISIONS),
    /** Who decided: the judge (audited) or an instructor's override. */
    source: z.enum(['judge', 'override']),
    awarded: z.number(),
    reason: z.string(),
    /** The quotes that checked out (what an instructor can show a student). */
    quotes: z.array(QuoteSchema),
    /** With judge.samples > 1: each sample's answer, in order. */
    answers: z.array(z.union([z.boolean(), z.literal('insufficient_evidence')])).optional(),
    override: ItemOverrideSchema.optional(),
  })
  .strict();
export type ItemResult = z.infer<typeof ItemResultSchema>;

export const ItemsScoreSchema = z
  .object({
    results: z.array(ItemResultSchema),
    /** Points awarded per criterion and for items of their own, before clamping to 0–10. */
    byCriterion: z.record(z.string(), z.number()),
    own: z.number(),
    /** What the items moved the final score by (after clamping). */
    delta: z.number(),
  })
  .strict();
export type ItemsScore = z.infer<typeof ItemsScoreSchema>;

/** One line of a batch folder's `overrides.jsonl`: a decision and whose submission and rubric it is for. */
export const OverrideRecordSchema = ItemOverrideSchema.extend({
  rubric: z.string().min(1),
  submission: z.string().min(1),
}).strict();
export type OverrideRecord = z.infer<typeof OverrideRecordSchema>;

/** Where the instructor's decisions are kept (a batch folder's file, the history store), for grading to apply. */
export interface OverrideSource {
  forSubmission(rubricId: string, submissionId: string): Promise<ItemOverride[]>;
}

/** The instructor's decisions a report's items carry. */
export const overridesOf = (items: ItemsScore | undefined): ItemOverride[] =>
  (items?.results ?? []).flatMap((i) => (i.override ? [i.override] : []));
