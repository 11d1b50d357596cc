/**
 * LlmClient on `@anthropic-ai/sdk`. SDK retries are off (maxRetries: 0): Temporal
 * owns retries, with the backoff our error mapping suggests. The environment is read
 * only in the factory, so the rest of the code never touches ANTHROPIC_* variables.
 */
import Anthropic from '@anthropic-ai/sdk';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { LlmClient, LlmRequest, LlmResponse } from './llm-client.js';
import { toModelError } from './model-errors.js';

export interface AnthropicLlmOptions {
  readonly apiKey: string;
  readonly baseURL?: string;
  /** Per request; default 10 min (long non-streaming replies). */
  readonly timeoutMs?: number;
}

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
  return anthropicLlmClient({ apiKey: apiKey ?? PLACEHOLDER_API_KEY, ...(baseURL ? { baseURL } : {}), ...options });
}

export function anthropicLlmClient(options: AnthropicLlmOptions): LlmClient {
  const client = new Anthropic({
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    maxRetries: 0,
    timeout: options.timeoutMs ?? 600_000,
  });
  return {
    async createMessage(request: LlmRequest, { signal }) {
      try {
        const { data, response } = await client.messages
          .create(request as unknown as Anthropic.MessageCreateParamsNonStreaming, { signal })
          .withResponse();
        const headers: Record<string, string> = {};
        response.headers.forEach((value, key) => {
          headers[key] = value;
        });
        return { ...(data as unknown as LlmResponse), headers };
      } catch (error) {
        throw toModelError(error, {
          model: request.model,
          signal,
          ...(options.baseURL ? { baseURL: options.baseURL } : {}),
        });
      }
    },
  };
}
