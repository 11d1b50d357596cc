/** Token usage and cost accounting, per turn, step and run. */

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

export const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

export function totalTokens(u: Usage): number {
  return u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
}

/** Run budget; checked before every model call, fail-closed. Undefined = unlimited. */
export interface RunBudget {
  /** The soft limit: reached, the run asks for more (`extend`, `/extend`) and waits. */
  readonly maxUsd?: number;
  readonly maxTokens?: number;
  readonly maxTurnsPerStep?: number;
  /**
   * The hard limit, set only where the run is started (`.agent/config.json`): no extension
   * raises `maxUsd` past it, and reaching it stops the run at once, its work kept.
   */
  readonly hardMaxUsd?: number;
}

/** The USD limit in force: the soft limit, never above the hard one. PURE. */
export function usdLimit(budget: RunBudget): number | undefined {
  const { maxUsd, hardMaxUsd } = budget;
  if (hardMaxUsd === undefined) return maxUsd;
  return maxUsd === undefined ? hardMaxUsd : Math.min(maxUsd, hardMaxUsd);
}

/** True when the spend reached the hard limit, or the soft limit and it cannot be raised. PURE. */
export function atHardLimit(budget: RunBudget, costUsd: number): boolean {
  const limit = usdLimit(budget);
  return budget.hardMaxUsd !== undefined && limit !== undefined && limit >= budget.hardMaxUsd && costUsd >= limit;
}
