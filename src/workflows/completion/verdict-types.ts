/**
 * What a completion strategy sees and what it decides. PURE types: strategies run in
 * deterministic workflow code, so everything they need arrives in VerdictInput (the
 * external issue state and a custom handler's answer are fetched by activities first,
 * as `verdictNeeds` asks).
 */
import type { Intent, StepKind } from '../../contracts/intents.js';
import type { JsonObject } from '../../contracts/json.js';

export interface VerdictInput {
  readonly iteration: number;
  readonly stepId: string;
  readonly stepKind: StepKind;
  /** Routed intent of this iteration. */
  readonly intent?: Intent;
  /** This iteration's structured output. */
  readonly output: JsonObject;
  /** The step's summary text. */
  readonly assistantText: string;
  /** A closure step said `closing` and the completion conditions passed this iteration. */
  readonly closingValidated: boolean;
  /** Completion checks run so far in the run. */
  readonly checkCount: number;
  /** Provided when verdictNeeds(spec).externalState. */
  readonly externalIssueState?: 'open' | 'closed';
  /** Provided when verdictNeeds(spec).customHandler. */
  readonly custom?: { readonly done: boolean; readonly reason: string };
}

export interface VerdictDecision {
  readonly done: boolean;
  /** A human sentence: why the run is (not yet) complete. */
  readonly reason: string;
  /** For composite verdicts: the decisions of the children that were evaluated. */
  readonly children?: readonly VerdictDecision[];
}

export interface VerdictNeeds {
  /** The workflow must read the issue's state before evaluating. */
  readonly externalState: boolean;
  /** Path of a custom handler the workflow must evaluate (through an activity) first. */
  readonly customHandler?: string;
}
