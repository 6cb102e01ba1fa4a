import type { JudgeSpec } from '../domain/judge.js';

export interface JudgeRequest {
  readonly system: string;
  readonly user: string;
  /** JSON Schema of the answer, sent as structured output in the form the server understands. */
  readonly schema: Record<string, unknown>;
  readonly seed: number;
}

export interface JudgeRaw {
  readonly content: string;
  readonly finishReason: string | null;
  readonly promptTokens: number;
  readonly completionTokens: number;
}

export type CallFailure = 'unavailable' | 'rate_limited' | 'timeout' | 'http_error' | 'transport_error' | 'malformed';

/** A judge call that did not produce an answer. The judge's failure is not the student's grade. */
export class JudgeCallError extends Error {
  constructor(
    readonly kind: CallFailure,
    message: string,
    readonly status: number | null = null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'JudgeCallError';
  }
}

/** The one narrow interface every judge implements. */
export interface Judge {
  /** Stable id for reports and cache keys, e.g. `endpoint:http://127.0.0.1:8080#qwen`. */
  readonly id: string;
  readonly spec: JudgeSpec;
  complete(req: JudgeRequest, signal: AbortSignal): Promise<JudgeRaw>;
}

export interface JudgeEnv {
  readonly hfToken: string | null;
}

/** A factory for one form of judge entry (promptfoo-style {test, create}). */
export interface JudgeFactory {
  /** How an entry of this form is written, for error messages listing the valid forms. */
  readonly form: string;
  test(spec: JudgeSpec): boolean;
  /** Null with a reason when the entry cannot be used here (e.g. no token). */
  create(spec: JudgeSpec, env: JudgeEnv): Judge | { unusable: string };
}
