/**
 * keywordSignal (upstream `detect:keyword`): complete when this iteration's assistant
 * text or structured output contains `verdictKeyword` (default TASK_COMPLETE). Only the
 * current iteration counts, so a keyword quoted long ago cannot end the run. PURE.
 */
import type { JsonObject } from '../../contracts/json.js';
import { configString } from './verdict-config.js';
import type { VerdictDecision, VerdictInput } from './verdict-types.js';

export const DEFAULT_VERDICT_KEYWORD = 'TASK_COMPLETE';

export function keywordSignalVerdict(config: JsonObject, input: VerdictInput): VerdictDecision {
  const keyword = configString(config, 'verdictKeyword', DEFAULT_VERDICT_KEYWORD);
  if (input.assistantText.includes(keyword))
    return { done: true, reason: `The assistant text contains the keyword ${keyword}.` };
  if (JSON.stringify(input.output).includes(keyword))
    return { done: true, reason: `The structured output contains the keyword ${keyword}.` };
  return { done: false, reason: `The keyword ${keyword} has not appeared in iteration ${input.iteration}.` };
}
