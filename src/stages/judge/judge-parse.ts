import { JudgeOutputSchema, type JudgeOutput } from '../../domain/judge.js';

export type ParsedJudge =
  { ok: true; value: JudgeOutput } | { ok: false; outcome: 'malformed' | 'truncated'; reason: string };

/**
 * Strict reading of a judge's answer: one JSON object of exactly the schema.
 * A single ```json fence around it is tolerated (models add one); anything
 * else — prose, extra or missing fields, out-of-range scores, a cut-off
 * answer — is malformed and costs the judge a retry.
 */
export function parseJudgeAnswer(
  content: string,
  finishReason: string | null,
  itemIds: readonly string[] = [],
): ParsedJudge {
  if (finishReason === 'length')
    return { ok: false, outcome: 'truncated', reason: 'the answer was cut off (finish_reason: length)' };
  const text = content
    .trim()
    .replace(/^```(?:json)?\s*\n([\s\S]*)\n```$/, '$1')
    .trim();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, outcome: 'malformed', reason: `not JSON: ${(e as Error).message}` };
  }
  const parsed = JudgeOutputSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    return { ok: false, outcome: 'malformed', reason: `schema: ${issues.join('; ')}` };
  }
  const items = itemsProblem(parsed.data.items, itemIds);
  return items ? { ok: false, outcome: 'malformed', reason: `items: ${items}` } : { ok: true, value: parsed.data };
}

/** An answer covers the rubric's items exactly: each once, none missing, none invented. */
function itemsProblem(items: JudgeOutput['items'], ids: readonly string[]): string | null {
  const got = (items ?? []).map((i) => i.id);
  if (ids.length === 0) return got.length ? `the rubric has no items, and the answer gives ${got.length}` : null;
  if (!items) return 'missing (the rubric has items)';
  const missing = ids.filter((id) => !got.includes(id));
  const unknown = got.filter((id) => !ids.includes(id));
  const twice = got.filter((id, i) => got.indexOf(id) !== i);
  const parts = [
    missing.length ? `missing ${missing.join(', ')}` : '',
    unknown.length ? `unknown ${unknown.join(', ')}` : '',
    twice.length ? `answered twice ${twice.join(', ')}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : null;
}
