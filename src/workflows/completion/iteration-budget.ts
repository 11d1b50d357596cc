/** iterationBudget (upstream `count:iteration`): complete after `maxIterations` iterations (default 100). PURE. */
import type { JsonObject } from '../../contracts/json.js';
import { configNumber } from './verdict-config.js';
import type { VerdictDecision, VerdictInput } from './verdict-types.js';

export const DEFAULT_MAX_ITERATIONS = 100;

export function iterationBudgetVerdict(config: JsonObject, input: VerdictInput): VerdictDecision {
  const max = configNumber(config, 'maxIterations', DEFAULT_MAX_ITERATIONS);
  return input.iteration >= max
    ? { done: true, reason: `The iteration budget is used up (${input.iteration} of ${max} iterations).` }
    : { done: false, reason: `${max - input.iteration} of ${max} iterations remain.` };
}
