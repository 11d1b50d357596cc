/** checkBudget (upstream `count:check`): complete after `maxChecks` completion checks (default 10). PURE. */
import type { JsonObject } from '../../contracts/json.js';
import { configNumber } from './verdict-config.js';
import type { VerdictDecision, VerdictInput } from './verdict-types.js';

export const DEFAULT_MAX_CHECKS = 10;

export function checkBudgetVerdict(config: JsonObject, input: VerdictInput): VerdictDecision {
  const max = configNumber(config, 'maxChecks', DEFAULT_MAX_CHECKS);
  return input.checkCount >= max
    ? { done: true, reason: `The check budget is used up (${input.checkCount} of ${max} checks).` }
    : { done: false, reason: `${input.checkCount} of ${max} checks done.` };
}
