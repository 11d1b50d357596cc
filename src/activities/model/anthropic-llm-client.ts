/**
 * LlmClient on `@anthropic-ai/sdk`. SDK retries are off (maxRetries: 0): Temporal
 * owns retries, with the backoff our error mapping suggests. The one fault retried
 * here is an HTTP 200 with a malformed body (a few attempts, then a non-retryable
 * failure quoting a redacted excerpt): a proxy or a flaky gateway can answer 200 with
 * HTML, a truncated body or JSON of another shape, a fault of the endpoint, not a bug
 * of ours (which would end the run as INTERNAL_ERROR). The environment is read only in
 * the factory, so the rest of the code never touches ANTHROPIC_* variables; credentials
 * written into ANTHROPIC_BASE_URL become a Basic auth header and never appear in a message.
 * The SDK is imported on the first request (~250 ms of module loading a worker does not
 * need before it polls); `preloadAnthropicSdk` starts that import in the background. */
import type Anthropic from '@anthropic-ai/sdk';
import type * as AnthropicModule from '@anthropic-ai/sdk';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import {
  createRedactor,
  redactedExcerpt,
  redactorForEnv,
  stripUserinfo,
  type Redact,
} from '../edge/secret-redactor.js';
import { defaultSleep } from './abortable-wait.js';
import type { LlmClient, LlmRequest, LlmResponse } from './llm-client.js';
import { toModelError } from './model-errors.js';

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

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What is wrong with the body; undefined when it is a usable message. */
export function responseProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return 'the body is not a JSON object';
  if (!Array.isArray(body['content'])) return '`content` is not an array';
  for (const [i, block] of body['content'].entries()) {
    if (!isRecord(block) || typeof block['type'] !== 'string') return `content[${i}] has no string \`type\``;
    if (block['type'] === 'text' && typeof block['text'] !== 'string') return `content[${i}].text is not a string`;
    if (block['type'] === 'tool_use' && (typeof block['id'] !== 'string' || typeof block['name'] !== 'string'))
      return `content[${i}] is a tool_use without a string id and name`;
  }
  if (body['stop_reason'] !== null && typeof body['stop_reason'] !== 'string')
    return '`stop_reason` is neither a string nor null';
  const usage = body['usage'];
  if (!isRecord(usage) || typeof usage['input_tokens'] !== 'number' || typeof usage['output_tokens'] !== 'number')
    return '`usage` lacks numeric input_tokens/output_tokens';
  return undefined;
}

/**
 * Parses the raw body; a malformed one throws a retryable MODEL_RESPONSE_MALFORMED
 * carrying a redacted, capped excerpt of what was received.
 */
export function parseMessageBody(raw: string, redact: Redact, endpoint: string): LlmResponse {
  let body: unknown;
  let problem: string | undefined;
  try {
    body = JSON.parse(raw);
    problem = responseProblem(body);
  } catch (error) {
    problem = `the body is not JSON (${(error as Error).message})`;
  }
  if (problem === undefined) return body as LlmResponse;
  const excerpt = redactedExcerpt(raw, redact, 300);
  throw new AgentError(
    FailureType.ModelResponseMalformed,
    `the model endpoint ${endpoint} answered HTTP 200 with a malformed body: ${problem}; received: ${JSON.stringify(excerpt)}`,
    { retryable: true, details: { problem, excerpt, bytes: raw.length } },
  );
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
