/**
 * The model-rate governor: one per worker process, shared by every step running in it,
 * so N concurrent runs slow down together before the provider answers with a 429 storm.
 *
 * Two token buckets, requests/minute and tokens/minute. Their size and refill come from
 * MODEL_RPM / MODEL_TPM (unlimited when unset) and are corrected by what the provider
 * says on every response (`anthropic-ratelimit-*` headers): the bucket level drops to the
 * provider's `remaining`, its capacity to the provider's `limit`, and when nothing is
 * left every caller waits until the `reset` time. A 429's retry-after holds everyone.
 *
 *   acquire({ estimatedTokens, signal })  waits (abortable) until one request of that size fits
 *   observe(headers)                      feeds a response's (or a 429's) headers
 *   settle(estimated, actual)             corrects the token bucket by the real usage
 *
 * Waiters are served in arrival order (no starvation of large requests). Every model request
 * goes through it: `createGovernedLlmClient` wraps the worker's LlmClient.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { abortable, abortReason, defaultSleep } from './abortable-wait.js';
import type { LlmClient, LlmRequest } from './llm-client.js';
import { Bucket } from './token-bucket.js';
import { headerGetter, num, tighter, windowOf, type ProviderWindow } from './rate-limit-headers.js';

export interface RateLimits {
  /** Requests per minute; undefined = unlimited until the provider reports a limit. */
  readonly rpm?: number;
  /** Tokens per minute (input tokens estimated from the request). */
  readonly tpm?: number;
}

export interface RateGovernorOptions extends RateLimits {
  /** Milliseconds clock (tests inject one). */
  readonly now?: () => number;
  /** Abortable sleep (tests inject one that advances their clock). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Upper bound of a single wait before the state is looked at again (default 5 s). */
  readonly maxWaitSliceMs?: number;
}

export interface AcquireRequest {
  readonly estimatedTokens: number;
  readonly signal?: AbortSignal;
}

export interface GovernorSnapshot {
  readonly requests?: { readonly capacity: number; readonly level: number; readonly perMinute: number };
  readonly tokens?: { readonly capacity: number; readonly level: number; readonly perMinute: number };
  /** Epoch ms until which every caller waits (provider said nothing is left / retry-after). */
  readonly holdUntil: number;
  readonly waiting: number;
  readonly granted: number;
  /** Total milliseconds callers spent waiting. */
  readonly waitedMs: number;
}

export interface RateGovernor {
  acquire(request: AcquireRequest): Promise<void>;
  observe(headers: Readonly<Record<string, string>> | Headers, at?: number): void;
  settle(estimatedTokens: number, actualTokens: number): void;
  /** Holds every caller for `ms` (a 429 without headers). */
  holdFor(ms: number): void;
  snapshot(): GovernorSnapshot;
}

function parseLimit(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    const expected = 'a positive number, or unset for no limit';
    throw new AgentError(
      FailureType.ConfigInvalid,
      `${name} must be a positive number (per minute), got ${JSON.stringify(raw)}`,
      { where: name, expected },
    );
  }
  return value;
}

/** MODEL_RPM / MODEL_TPM; unset or empty = unlimited. */
export function rateLimitsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): RateLimits {
  const rpm = parseLimit('MODEL_RPM', env['MODEL_RPM']);
  const tpm = parseLimit('MODEL_TPM', env['MODEL_TPM']);
  return { ...(rpm === undefined ? {} : { rpm }), ...(tpm === undefined ? {} : { tpm }) };
}

export function createRateGovernor(options: RateGovernorOptions = {}): RateGovernor {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const slice = options.maxWaitSliceMs ?? 5000;
  const configured = { rpm: options.rpm, tpm: options.tpm };
  let requests = options.rpm === undefined ? undefined : new Bucket(options.rpm, now());
  let tokens = options.tpm === undefined ? undefined : new Bucket(options.tpm, now());
  let holdUntil = 0;
  let tail: Promise<void> = Promise.resolve();
  let waiting = 0;
  let granted = 0;
  let waitedMs = 0;

  function waitNeeded(estimatedTokens: number, t: number): number {
    const hold = Math.max(0, holdUntil - t);
    const r = requests?.waitFor(1, t) ?? 0;
    const k = tokens?.waitFor(estimatedTokens, t) ?? 0;
    return Math.max(hold, r, k);
  }

  async function waitAndTake(request: AcquireRequest): Promise<void> {
    const estimate = Math.max(0, Math.ceil(request.estimatedTokens));
    for (;;) {
      if (request.signal?.aborted) throw abortReason(request.signal);
      const t = now();
      const wait = waitNeeded(estimate, t);
      if (wait <= 0) {
        requests?.take(1);
        tokens?.take(estimate);
        granted += 1;
        return;
      }
      // Sleep in slices: observe() may lift or tighten the limit meanwhile.
      const ms = Math.min(wait, slice);
      waitedMs += ms;
      await sleep(ms, request.signal);
    }
  }

  /** Provider state overrides ours: capacity = its limit, level ≤ its remaining, empty → hold to reset. */
  function applyWindow(
    current: Bucket | undefined,
    window: ProviderWindow | undefined,
    configuredLimit: number | undefined,
    t: number,
  ): Bucket | undefined {
    if (window === undefined) return current;
    const limit = window.limit ?? current?.capacity ?? configuredLimit;
    let bucket = current;
    if (bucket === undefined && limit !== undefined) bucket = new Bucket(limit, t);
    if (bucket === undefined) {
      // Unknown limit: only an exhausted window constrains us.
      if (window.remaining === 0 && window.reset !== undefined) holdUntil = Math.max(holdUntil, window.reset);
      return undefined;
    }
    bucket.refill(t);
    if (limit !== undefined) {
      bucket.capacity = configuredLimit === undefined ? limit : Math.min(limit, configuredLimit);
      bucket.level = Math.min(bucket.level, bucket.capacity);
    }
    if (window.remaining !== undefined) bucket.level = Math.min(bucket.level, window.remaining);
    if (window.remaining !== undefined && window.remaining < 1 && window.reset !== undefined)
      holdUntil = Math.max(holdUntil, window.reset);
    return bucket;
  }

  return {
    async acquire(request) {
      const previous = tail;
      let release!: () => void;
      const mine = new Promise<void>((r) => (release = r));
      tail = previous.then(() => mine);
      waiting += 1;
      try {
        await abortable(previous, request.signal);
        await waitAndTake(request);
      } finally {
        waiting -= 1;
        release();
      }
    },

    observe(headers, at) {
      const t = at ?? now();
      const get = headerGetter(headers);
      requests = applyWindow(requests, windowOf(get, 'requests', t), configured.rpm, t);
      const total = windowOf(get, 'tokens', t);
      const split = tighter(windowOf(get, 'input-tokens', t), windowOf(get, 'output-tokens', t));
      tokens = applyWindow(tokens, total ?? split, configured.tpm, t);
      const retryAfterSeconds = num(get('retry-after'));
      const retryMs =
        num(get('retry-after-ms')) ?? (retryAfterSeconds === undefined ? undefined : retryAfterSeconds * 1000);
      if (retryMs !== undefined && retryMs > 0) holdUntil = Math.max(holdUntil, t + retryMs);
    },

    settle(estimatedTokens, actualTokens) {
      if (tokens === undefined || !Number.isFinite(actualTokens)) return;
      tokens.take(actualTokens - Math.max(0, Math.ceil(estimatedTokens)));
    },

    holdFor(ms) {
      if (ms > 0) holdUntil = Math.max(holdUntil, now() + ms);
    },

    snapshot() {
      const t = now();
      const view = (b: Bucket | undefined) => {
        if (b === undefined) return undefined;
        b.refill(t);
        return { capacity: b.capacity, level: b.level, perMinute: b.capacity };
      };
      const r = view(requests);
      const k = view(tokens);
      return { ...(r ? { requests: r } : {}), ...(k ? { tokens: k } : {}), holdUntil, waiting, granted, waitedMs };
    },
  };
}

let shared: RateGovernor | undefined;

/** The one governor of this worker process (limits from MODEL_RPM / MODEL_TPM, read once). */
export function sharedRateGovernor(env: Readonly<Record<string, string | undefined>> = process.env): RateGovernor {
  shared ??= createRateGovernor(rateLimitsFromEnv(env));
  return shared;
}

/** Without a retry-after, a 429 holds every caller this long. */
export const DEFAULT_RATE_LIMIT_HOLD_MS = 2000;

/** Input tokens of a request, estimated at 4 characters a token (counting exactly would cost a request). */
export function estimateRequestTokens(request: LlmRequest): number {
  const chars =
    JSON.stringify(request.system).length +
    JSON.stringify(request.messages).length +
    JSON.stringify(request.tools).length +
    (request.output_config ? JSON.stringify(request.output_config).length : 0);
  return Math.ceil(chars / 4);
}

/** Asks the governor before each request; feeds it the reply's headers and real usage, and a 429's retry-after. */
export function createGovernedLlmClient(llm: LlmClient, governor: RateGovernor): LlmClient {
  return {
    async createMessage(request, options) {
      const estimated = estimateRequestTokens(request);
      await governor.acquire({ estimatedTokens: estimated, signal: options.signal });
      try {
        const response = await llm.createMessage(request, options);
        governor.observe(response.headers);
        // What input-token limits count: uncached input and cache writes (cache reads are not counted).
        governor.settle(estimated, response.usage.input_tokens + (response.usage.cache_creation_input_tokens ?? 0));
        return response;
      } catch (err) {
        if (AgentError.isInstance(err) && err.code === FailureType.ModelRateLimited) {
          const retryAfterMs = err.details?.['retryAfterMs'];
          governor.holdFor(
            typeof retryAfterMs === 'number' && retryAfterMs > 0 ? retryAfterMs : DEFAULT_RATE_LIMIT_HOLD_MS,
          );
        }
        throw err;
      }
    },
  };
}
