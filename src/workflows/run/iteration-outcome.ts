/** What one iteration of the Flow loop tells the run loop. */
import type { FailureType } from '../../contracts/failures.js';
import type { BoundaryReport } from '../../contracts/run.js';

export type IterationOutcome =
  | { readonly kind: 'continue' }
  | { readonly kind: 'budget-exhausted'; readonly reason: string }
  | { readonly kind: 'done'; readonly reason: string; readonly verdict?: string; readonly boundary?: BoundaryReport }
  | {
      readonly kind: 'failed';
      readonly code: FailureType;
      readonly reason: string;
      /** Set when the work was validated but its delivery did not (fully) happen. */
      readonly boundary?: BoundaryReport;
    };
