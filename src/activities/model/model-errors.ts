/**
 * Maps SDK/HTTP failures onto AgentError codes so the activity can decide retry vs
 * fail without knowing the SDK: rate limits and outages are retryable (with the
 * server's retry-after when given), everything the user must fix is not.
 * Messages never contain the API key (the SDK does not echo it; we redact anyway).
 */
import type { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { stripUserinfo, type Redact } from '../edge/secret-redactor.js';

const CONFIG_HINT = 'check ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL';
const SPEND_LIMIT = /spend(ing)? limit|usage limit|credit balance|billing|enforced_spend_limit/i;
const PROMPT_TOO_LONG = /prompt is too long|context window|too many tokens|context length/i;

type HeaderSource = Headers | Readonly<Record<string, string>> | undefined | null;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string>>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : record[key];
}

/** `retry-after-ms`, else `retry-after` as seconds or an HTTP date; undefined when absent/invalid. */
export function parseRetryAfterMs(headers: HeaderSource, now: number = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0)
    return Math.ceil(Number(ms));
  const value = header(headers, 'retry-after');
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The SDK's error classes, from the module the client loaded (it is imported lazily). */
export interface SdkErrorClasses {
  readonly APIError: typeof APIError;
  readonly APIConnectionError: typeof APIConnectionError;
  readonly APIUserAbortError: typeof APIUserAbortError;
}

export interface ModelErrorContext {
  readonly model: string;
  readonly sdkErrors: SdkErrorClasses;
  readonly baseURL?: string;
  readonly signal?: AbortSignal;
  /** The worker's secret redactor (edge/secret-redactor.ts). */
  readonly redact: Redact;
}

/** Converts anything the SDK throws; rethrows the signal's reason on cancellation. */
export function toModelError(error: unknown, ctx: ModelErrorContext): unknown {
  if (ctx.signal?.aborted) return ctx.signal.reason ?? error;
  const redact = (text: string): string => ctx.redact(stripUserinfo(text));
  if (AgentError.isInstance(error)) return error;
  const { APIConnectionError, APIError, APIUserAbortError } = ctx.sdkErrors;
  if (error instanceof APIUserAbortError)
    return new AgentError(FailureType.Aborted, 'the model request was aborted', { retryable: true });
  if (error instanceof APIConnectionError) {
    // Includes APIConnectionTimeoutError and connection resets.
    return new AgentError(
      FailureType.ModelUnavailable,
      `cannot reach the model endpoint${ctx.baseURL ? ` ${redact(ctx.baseURL)}` : ''}: ${redact(error.message)}`,
      {
        retryable: true,
        details: { kind: 'connection' },
      },
    );
  }
  if (!(error instanceof APIError) || typeof error.status !== 'number') return error;

  const status = error.status;
  const apiMessage = redact(error.apiMessage ?? error.message);
  const retryAfterMs = parseRetryAfterMs(error.headers as HeaderSource);
  const base = {
    status,
    type: error.type ?? null,
    requestId: error.requestID ?? null,
    errorCode: error.errorCode ?? null,
  };
  const fields = `${apiMessage} ${error.errorCode ?? ''} ${error.type ?? ''}`;

  if ((status === 429 || status === 400 || status === 402) && SPEND_LIMIT.test(fields)) {
    return new AgentError(
      FailureType.ModelSpendLimit,
      `the model provider's spend/usage limit is reached (HTTP ${status}: ${apiMessage}); raise the limit or wait for it to reset, retrying now cannot help`,
      { details: base },
    );
  }
  if (status === 429) {
    return new AgentError(
      FailureType.ModelRateLimited,
      `rate limited by the model provider (HTTP 429: ${apiMessage})`,
      {
        retryable: true,
        details: retryAfterMs === undefined ? base : { ...base, retryAfterMs },
      },
    );
  }
  if (status === 401 || status === 403) {
    return new AgentError(
      FailureType.ModelAuth,
      `the model endpoint rejected our credentials (HTTP ${status}: ${apiMessage}); ${CONFIG_HINT}`,
      {
        where: 'ANTHROPIC_API_KEY',
        details: base,
      },
    );
  }
  if (status === 404) {
    return new AgentError(
      FailureType.ModelRequestInvalid,
      `model or endpoint not found (HTTP 404: ${apiMessage}); check the model name "${ctx.model}" in the agent definition and ANTHROPIC_BASE_URL`,
      {
        where: 'model.model',
        details: base,
      },
    );
  }
  if ((status === 400 || status === 413) && PROMPT_TOO_LONG.test(apiMessage)) {
    return new AgentError(
      FailureType.ModelContextExceeded,
      `the conversation no longer fits the model's context window (HTTP ${status}: ${apiMessage}); split the step or reduce tool output`,
      { details: base },
    );
  }
  if (status === 408 || status === 409 || status >= 500) {
    return new AgentError(
      FailureType.ModelUnavailable,
      `the model endpoint is unavailable (HTTP ${status}: ${apiMessage})`,
      {
        retryable: true,
        details: retryAfterMs === undefined ? base : { ...base, retryAfterMs },
      },
    );
  }
  return new AgentError(
    FailureType.ModelRequestInvalid,
    `the model endpoint rejected the request (HTTP ${status}: ${apiMessage}); fix the request (model settings, schema, tools) in the agent definition`,
    { details: base },
  );
}
