/**
 * LlmClient on `@anthropic-ai/sdk`. SDK retries are off (maxRetries: 0): Temporal
 * owns retries, with the backoff our error mapping suggests. The one fault retried
 * here is an HTTP 200 with a malformed body (a few attempts, then a non-retryable
 * failure quoting a redacted excerpt). The environment is read only in the factory,
 * so the rest of the code never touches ANTHROPIC_* variables; credentials written
 * into ANTHROPIC_BASE_URL become a Basic auth header and never appear in a message.
 * The SDK is imported on the first request (~250 ms of module loading a worker does not
 * need before it polls); `preloadAnthropicSdk` starts that import in the background.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type * as AnthropicModule from '@anthropic-ai/sdk';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { createRedactor, redactorForEnv, stripUserinfo, type Redact } from '../edge/secret-redactor.js';
import { defaultSleep } from './abortable-wait.js';
import type { LlmClient, LlmRequest, LlmResponse } from './llm-client.js';
import { toModelError } from './model-errors.js';
import { parseMessageBody } from './response-shape.js';

export interface AnthropicLlmOptions {
  readonly apiKey: string;
  readonly baseURL?: string;
  /** Per request; default 10 min (long non-streaming replies). */
  readonly timeoutMs?: number;
  /** Applied to every text that leaves this client in an error; default: key shapes and URL credentials. */
  readonly redact?: Redact;
  /** Attempts at an answer that is HTTP 200 but malformed (default 3), and the pause between them. */
  readonly malformedAttempts?: number;
  readonly malformedPauseMs?: number;
}

type AnthropicSdk = typeof AnthropicModule;

let sdkLoad: Promise<AnthropicSdk> | undefined;

/** The SDK module, imported once per process; a failed import is retried on the next call. */
function loadSdk(): Promise<AnthropicSdk> {
  sdkLoad ??= import('@anthropic-ai/sdk').catch((error: unknown) => {
    sdkLoad = undefined;
    throw error;
  });
  return sdkLoad;
}

/** Starts importing the SDK without waiting (a worker calls it once it polls); never throws. */
export function preloadAnthropicSdk(): void {
  loadSdk().catch(() => undefined);
}

/** The beta a request with `context_management` (the API's context editing) needs. */
export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';

/** Sent to a local offline server when no key is configured; it ignores auth. */
export const PLACEHOLDER_API_KEY = 'offline-placeholder-key';

export function createAnthropicLlmClient(
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: { readonly timeoutMs?: number } = {},
): LlmClient {
  const apiKey = env['ANTHROPIC_API_KEY']?.trim() || undefined;
  const baseURL = env['ANTHROPIC_BASE_URL']?.trim() || undefined;
  if (apiKey === undefined && baseURL === undefined) {
    throw new AgentError(
      FailureType.ModelAuth,
      'no model credentials: set ANTHROPIC_API_KEY, or ANTHROPIC_BASE_URL to an offline model server',
      {
        where: 'ANTHROPIC_API_KEY',
      },
    );
  }
  return anthropicLlmClient({
    apiKey: apiKey ?? PLACEHOLDER_API_KEY,
    ...(baseURL ? { baseURL } : {}),
    redact: redactorForEnv(env),
    ...options,
  });
}

/** Splits `http://user:pass@host/` into the URL without credentials and a Basic auth header. */
export function splitBaseUrl(baseURL: string): { readonly url: string; readonly headers: Record<string, string> } {
  let parsed: URL;
  try {
    parsed = new URL(baseURL);
  } catch {
    throw new AgentError(FailureType.ConfigInvalid, `ANTHROPIC_BASE_URL is not a URL: ${stripUserinfo(baseURL)}`, {
      where: 'ANTHROPIC_BASE_URL',
      expected: 'an absolute URL such as http://127.0.0.1:8787',
    });
  }
  if (parsed.username === '' && parsed.password === '') return { url: baseURL, headers: {} };
  const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return {
    url: parsed.toString(),
    headers: { authorization: `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}` },
  };
}

/**
 * One request's own signal, following the step's. The SDK and fetch each hang an abort
 * listener on the signal they are given and never take it off: on the step's signal,
 * which lives for the whole tool loop, they piled up (three per turn, Node warns at
 * eleven). On this one they go away with the request.
 */
export function requestSignal(step: AbortSignal): { readonly signal: AbortSignal; readonly done: () => void } {
  const own = new AbortController();
  const follow = (): void => own.abort(step.reason);
  if (step.aborted) own.abort(step.reason);
  else step.addEventListener('abort', follow, { once: true });
  return { signal: own.signal, done: () => step.removeEventListener('abort', follow) };
}

export function anthropicLlmClient(options: AnthropicLlmOptions): LlmClient {
  const redact = options.redact ?? createRedactor([]);
  const base = options.baseURL === undefined ? undefined : splitBaseUrl(options.baseURL);
  const endpoint = base?.url ?? 'https://api.anthropic.com';
  const attempts = Math.max(1, options.malformedAttempts ?? 3);
  let client: Anthropic | undefined;
  const clientFrom = (sdk: AnthropicSdk): Anthropic =>
    (client ??= new sdk.default({
      apiKey: options.apiKey,
      ...(base ? { baseURL: base.url, defaultHeaders: base.headers } : {}),
      maxRetries: 0,
      timeout: options.timeoutMs ?? 600_000,
    }));

  async function once(request: LlmRequest, signal: AbortSignal) {
    const sdk = await loadSdk();
    const linked = requestSignal(signal);
    try {
      const response = await clientFrom(sdk)
        .messages.create(request as unknown as Anthropic.MessageCreateParamsNonStreaming, {
          signal: linked.signal,
          ...(request.context_management ? { headers: { 'anthropic-beta': CONTEXT_MANAGEMENT_BETA } } : {}),
        })
        .asResponse();
      const raw = await response.text().catch((error: unknown) => {
        throw new AgentError(
          FailureType.ModelUnavailable,
          `the model endpoint ${endpoint} broke off its answer: ${redact(String((error as Error).message))}`,
          { retryable: true, details: { kind: 'body' } },
        );
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, key) => {
        headers[key] = value;
      });
      return { ...parseMessageBody(raw, redact, endpoint), headers } as LlmResponse & {
        readonly headers: Readonly<Record<string, string>>;
      };
    } catch (error) {
      throw toModelError(error, {
        model: request.model,
        signal,
        redact,
        sdkErrors: sdk,
        ...(base ? { baseURL: base.url } : {}),
      });
    } finally {
      linked.done();
    }
  }

  return {
    async createMessage(request: LlmRequest, { signal }) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await once(request, signal);
        } catch (error) {
          if (!AgentError.isInstance(error) || error.code !== FailureType.ModelResponseMalformed) throw error;
          if (attempt >= attempts) {
            throw new AgentError(error.code, `${error.message} (gave up after ${attempts} attempts)`, {
              where: 'ANTHROPIC_BASE_URL',
              expected: 'a Messages API answer: {"content": [...], "stop_reason": ..., "usage": {...}}',
              details: { ...error.details, attempts },
              retryable: false,
            });
          }
          await defaultSleep((options.malformedPauseMs ?? 1000) * attempt, signal);
        }
      }
    },
  };
}
