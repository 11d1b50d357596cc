/**
 * custom (upstream `meta:custom`): the decision of a handler loaded from the agent
 * directory. The handler runs in an activity (it is arbitrary code); its answer arrives
 * in `input.custom`. Without an answer the run is not complete. PURE.
 */
import type { VerdictDecision, VerdictInput } from './verdict-types.js';

export function customVerdict(input: VerdictInput): VerdictDecision {
  if (input.custom === undefined) return { done: false, reason: 'The custom handler has not given a decision.' };
  const reason =
    input.custom.reason.trim() ||
    (input.custom.done
      ? 'The custom handler says the run is complete.'
      : 'The custom handler says the run is not complete.');
  return { done: input.custom.done, reason };
}
