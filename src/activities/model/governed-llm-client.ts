/**
 * An LlmClient decorator that asks the process's rate governor before every request
 * and feeds it what the provider said afterwards (rate-limit headers, real usage, a
 * 429's retry-after), so every run in a worker slows down together.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { LlmClient, LlmRequest } from './llm-client.js';
import type { RateGovernor } from './rate-governor.js';

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
