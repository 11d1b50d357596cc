/**
 * stepMachine (upstream `detect:graph`): the run is complete when the step flow reached
 * its end — a closure step said `closing` AND the completion conditions passed. The
 * model's own `status: "completed"` is informational only (docs/concepts.md#verdict). PURE.
 */
import type { VerdictDecision, VerdictInput } from './verdict-types.js';

export function stepMachineVerdict(input: VerdictInput): VerdictDecision {
  if (input.closingValidated)
    return {
      done: true,
      reason: `Closure step ${input.stepId} signalled closing and the completion conditions passed.`,
    };
  if (input.intent === 'closing')
    return {
      done: false,
      reason: `Closure step ${input.stepId} signalled closing but the completion conditions have not passed yet.`,
    };
  return {
    done: false,
    reason: `The step flow has not reached a validated closing yet (at ${input.stepId}, iteration ${input.iteration}).`,
  };
}
