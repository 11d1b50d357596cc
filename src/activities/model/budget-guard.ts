/**
 * Fail-closed budget check, run before EVERY model call. `budget` holds what was
 * left of the run when the step started; the step's own spend so far is subtracted.
 * The next call's input is estimated (last turn's input incl. cache + last output +
 * newly appended chars / 4) because counting tokens exactly would cost a request.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { totalTokens, type RunBudget, type Usage } from '../../contracts/usage.js';
import type { ModelPrice } from './pricing.js';

export interface BudgetGuardInput {
  readonly budget: RunBudget;
  readonly usedUsage: Usage;
  readonly usedUsd: number;
  readonly estimatedInputTokens: number;
  readonly price: ModelPrice;
}

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

export function assertWithinBudget(check: BudgetGuardInput): void {
  const usedTokens = totalTokens(check.usedUsage);
  const details = { usedUsd: round(check.usedUsd), usedTokens, estimatedInputTokens: check.estimatedInputTokens };
  const { maxUsd, maxTokens } = check.budget;
  if (maxUsd !== undefined) {
    const nextUsd = (check.estimatedInputTokens * check.price.input) / 1_000_000;
    if (check.usedUsd >= maxUsd || check.usedUsd + nextUsd > maxUsd) {
      throw new AgentError(
        FailureType.BudgetExhausted,
        `USD budget exhausted: $${details.usedUsd} spent in this step, $${round(maxUsd)} was left for the run`,
        {
          where: 'budget.maxUsd',
          expected: `the next call to stay within $${round(maxUsd)}`,
          details: { ...details, maxUsd },
        },
      );
    }
  }
  if (maxTokens !== undefined && usedTokens + check.estimatedInputTokens > maxTokens) {
    throw new AgentError(
      FailureType.BudgetExhausted,
      `token budget exhausted: ${usedTokens} tokens used in this step and the next call needs about ${check.estimatedInputTokens}, but ${maxTokens} were left for the run`,
      { where: 'budget.maxTokens', details: { ...details, maxTokens } },
    );
  }
}

function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}
