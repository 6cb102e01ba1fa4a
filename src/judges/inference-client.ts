import type * as HF from '@huggingface/inference';
import type { JudgeSpec } from '../domain/judge.js';
import { JudgeCallError, type Judge, type JudgeRaw, type JudgeRequest } from './types.js';

/** Retry-After is seconds or an HTTP date; the client does not expose headers, so our fetch wrapper reads it. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const secs = Number(header);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function responseFormat(spec: JudgeSpec, schema: Record<string, unknown>): Record<string, unknown> | undefined {
  if (spec.structuredOutput === 'tgi') return { type: 'json', value: schema };
  if (spec.structuredOutput === 'openai')
    return { type: 'json_schema', json_schema: { name: 'evigrade_judgement', schema, strict: true } };
  return undefined;
}

// The client library is loaded with the first judge call: a run that never asks a judge never pays for it.
let hfLib: Promise<typeof HF> | null = null;
const hf = (): Promise<typeof HF> => (hfLib ??= import('@huggingface/inference'));

/** Loads the client library before a call's time limit starts (its first load is not the endpoint's time). */
export const loadInferenceClient = async (): Promise<void> => void (await hf());

function classify(
  e: unknown,
  retryAfter: number | null,
  { InferenceClientProviderApiError, InferenceClientProviderOutputError }: typeof HF,
): JudgeCallError {
  if (e instanceof JudgeCallError) return e;
  const err = e as Error;
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError')
    return new JudgeCallError('timeout', 'no answer within the time limit');
  if (e instanceof InferenceClientProviderApiError) {
    const status = e.httpResponse.status;
    const body = typeof e.httpResponse.body === 'string' ? e.httpResponse.body : JSON.stringify(e.httpResponse.body);
    const what = `HTTP ${status}: ${String(body).slice(0, 300)}`;
    if (status === 503) return new JudgeCallError('unavailable', what, status, retryAfter);
    if (status === 429) return new JudgeCallError('rate_limited', what, status, retryAfter);
    return new JudgeCallError('http_error', what, status, retryAfter);
  }
  if (e instanceof InferenceClientProviderOutputError)
    return new JudgeCallError('malformed', `unexpected response shape: ${err.message}`);
  // fetch failures (refused, reset, DNS) surface as TypeError with a cause; never echo request headers (the token).
  const cause = (err as { cause?: { code?: string } })?.cause?.code;
  return new JudgeCallError(
    'transport_error',
    `${err?.name ?? 'Error'}: ${cause ?? err?.message ?? String(e)}`.slice(0, 300),
  );
}

/**
 * A judge over the real `InferenceClient` of @huggingface/inference: either a
 * Hugging Face provider (token) or a self-hosted OpenAI-compatible endpoint.
 * The client's own unbounded 503 retry loop is off; the chain retries.
 */
export function inferenceJudge(id: string, spec: JudgeSpec, token: string | null): Judge {
  let client: HF.InferenceClient | null = null;
  return {
    id,
    spec,
    async complete(req: JudgeRequest, signal: AbortSignal): Promise<JudgeRaw> {
      let retryAfter: number | null = null;
      const readHeaders: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        retryAfter = retryAfterMs(res.headers.get('retry-after'));
        return res;
      };
      const format = responseFormat(spec, req.schema);
      const lib = await hf();
      client ??= spec.endpointUrl
        ? new lib.InferenceClient(token ?? undefined, { endpointUrl: spec.endpointUrl })
        : new lib.InferenceClient(token ?? undefined);
      try {
        const out = await client.chatCompletion(
          {
            model: spec.model,
            ...(spec.provider ? { provider: spec.provider as never } : {}),
            messages: [
              { role: 'system', content: req.system },
              { role: 'user', content: req.user },
            ],
            temperature: 0,
            seed: req.seed,
            max_tokens: spec.max_tokens,
            ...(format ? { response_format: format as never } : {}),
          },
          { retry_on_error: false, signal, fetch: readHeaders },
        );
        const choice = out.choices?.[0];
        return {
          content: typeof choice?.message?.content === 'string' ? choice.message.content : '',
          finishReason: choice?.finish_reason ?? null,
          promptTokens: out.usage?.prompt_tokens ?? 0,
          completionTokens: out.usage?.completion_tokens ?? 0,
        };
      } catch (e) {
        throw classify(e, retryAfter, lib);
      }
    },
  };
}
