/**
 * externalState (upstream `poll:state`): complete when the issue is closed in its
 * source. The state is read by an activity before evaluation; an unknown state counts
 * as open (a failed read must never end a run). PURE.
 */
import type { VerdictDecision, VerdictInput } from './verdict-types.js';

export function externalStateVerdict(input: VerdictInput): VerdictDecision {
  switch (input.externalIssueState) {
    case 'closed':
      return { done: true, reason: 'The issue is closed.' };
    case 'open':
      return { done: false, reason: 'The issue is still open.' };
    case undefined:
      return { done: false, reason: 'The issue state is unknown, so the issue is treated as open.' };
  }
}
