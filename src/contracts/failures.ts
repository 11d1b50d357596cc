/**
 * Failure types: the `type` of every non-retryable ApplicationFailure an activity
 * throws and of every failure the run workflow ends with. Stable codes: operators and
 * tests branch on them.
 */
export const FailureType = {
  ConfigInvalid: 'CONFIG_INVALID',
  /** The run's definition snapshot is missing or no longer matches the digest in its history. */
  DefinitionChanged: 'DEFINITION_CHANGED',
  SchemaResolution: 'SCHEMA_RESOLUTION',
  FailedSchemaResolution: 'FAILED_SCHEMA_RESOLUTION',
  FailedStepRouting: 'FAILED_STEP_ROUTING',
  PromptResolution: 'PROMPT_RESOLUTION',
  StructuredOutputInvalid: 'STRUCTURED_OUTPUT_INVALID',
  ModelRequestInvalid: 'MODEL_REQUEST_INVALID',
  ModelAuth: 'MODEL_AUTH',
  ModelRefusal: 'MODEL_REFUSAL',
  ModelSpendLimit: 'MODEL_SPEND_LIMIT',
  ModelContextExceeded: 'MODEL_CONTEXT_EXCEEDED',
  ModelRateLimited: 'MODEL_RATE_LIMITED',
  ModelUnavailable: 'MODEL_UNAVAILABLE',
  /** HTTP 200 whose body is not a Messages API answer (retried a few times within the step). */
  ModelResponseMalformed: 'MODEL_RESPONSE_MALFORMED',
  BudgetExhausted: 'BUDGET_EXHAUSTED',
  ValidatorUnrecoverable: 'VALIDATOR_UNRECOVERABLE',
  /**
   * The run's environment could not be prepared, a validator command cannot run on the base, or
   * the test command's failures there cannot be named: no model request made.
   */
  EnvironmentFailed: 'ENVIRONMENT_FAILED',
  ValidationAborted: 'VALIDATION_ABORTED',
  IssueNotFound: 'ISSUE_NOT_FOUND',
  RepoNotFound: 'REPO_NOT_FOUND',
  WorktreeFailed: 'WORKTREE_FAILED',
  /** The issue's branch and worktree belong to another agent (1 issue = 1 branch = 1 worktree = 1 agent). */
  WorktreeOwned: 'WORKTREE_OWNED',
  BoundaryFailed: 'BOUNDARY_FAILED',
  BoundaryPartial: 'BOUNDARY_PARTIAL',
  MaxIterations: 'MAX_ITERATIONS',
  Aborted: 'ABORTED',
  CustomHandler: 'CUSTOM_HANDLER',
  IssueInvalid: 'ISSUE_INVALID',
  GitHubAuth: 'GITHUB_AUTH',
  GitHubRequest: 'GITHUB_REQUEST',
  GitHubRateLimited: 'GITHUB_RATE_LIMITED',
  GitHubUnavailable: 'GITHUB_UNAVAILABLE',
} as const;
export type FailureType = (typeof FailureType)[keyof typeof FailureType];

export const ALL_FAILURE_TYPES: readonly FailureType[] = Object.values(FailureType);

/** Narrows a failure's type string from the wire; anything else (an SDK or JS error name) is undefined. */
export function asFailureType(type: string | null | undefined): FailureType | undefined {
  return (ALL_FAILURE_TYPES as readonly (string | null | undefined)[]).includes(type)
    ? (type as FailureType)
    : undefined;
}

/** Failure types that count toward schema fail-fast (docs/concepts.md#gate). */
export const SCHEMA_FAILURE_TYPES: readonly FailureType[] = [
  FailureType.SchemaResolution,
  FailureType.StructuredOutputInvalid,
];
