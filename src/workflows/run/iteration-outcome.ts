/** What one iteration of the Flow loop tells the run loop. */
import type { FailureType } from '../../contracts/failures.js';
import type { UnchangedBranch } from '../../contracts/no-change.js';
import type { BoundaryReport } from '../../contracts/run.js';
import type { AskedQuestion } from '../../contracts/human-loop.js';

export type IterationOutcome =
  | { readonly kind: 'continue' }
  | { readonly kind: 'budget-exhausted'; readonly reason: string }
  /** The model asked a question (the `ask` tool): the run waits for an answer, then runs the step again. */
  | { readonly kind: 'question'; readonly question: AskedQuestion }
  /** The entry step's plan needs a person's `/approve` (planApproval): the run waits, then goes on to `next`. */
  | {
      readonly kind: 'plan';
      readonly next: string;
      readonly reason: string;
      readonly files: readonly string[];
      readonly plan: string;
    }
  | { readonly kind: 'done'; readonly reason: string; readonly verdict?: string; readonly boundary?: BoundaryReport }
  /** Nothing to change, confirmed and declared (contracts/no-change.ts): no delivery; `boundary` is the comment and label. */
  | {
      readonly kind: 'no-change';
      readonly reason: string;
      readonly unchanged: UnchangedBranch;
      readonly boundary: BoundaryReport;
    }
  | {
      readonly kind: 'failed';
      readonly code: FailureType;
      readonly reason: string;
      /** Set when the work was validated but its delivery did not (fully) happen. */
      readonly boundary?: BoundaryReport;
    };
