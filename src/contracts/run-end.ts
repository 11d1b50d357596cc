/**
 * How a run ends in Temporal, so the Web UI's status column tells the truth: success
 * completes with the RunResult; a failed run fails the workflow with an ApplicationFailure
 * (type = the FailureType code; NO_CHANGE for the `no-change` outcome) carrying the
 * RunResult as its first detail; a cancelled run ends CANCELLED with the RunResult in
 * the `runResult` memo (a cancelled workflow carries no details), whether Temporal's
 * cancel request or only our `cancel` signal stopped it (the run then asks the server to
 * cancel it: cancelOwnRun). Only when that request cannot be made does it fail with type
 * RUN_CANCELLED carrying the result.
 * Readers use runResultOf on what they got; `start-run` exits with runExitCode.
 */
import { RunOutcome, type RunResult } from './run.js';

export const RUN_RESULT_MEMO = 'runResult';
export const RUN_CANCELLED_TYPE = 'RUN_CANCELLED';
/** The failure type a run with the `no-change` outcome ends with: never COMPLETED, so never read as delivered. */
export const RUN_NO_CHANGE_TYPE = 'NO_CHANGE';

export interface CancelOwnRunInput {
  readonly workflowId: string;
  readonly runId: string;
}

/** The run's own end: a workflow cannot cancel itself by command, so a client does it. */
export interface RunEndActivities {
  cancelOwnRun(input: CancelOwnRunInput): Promise<void>;
}

export function isRunResult(value: unknown): value is RunResult {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    (Object.values(RunOutcome) as unknown[]).includes(v['outcome']) &&
    typeof v['reason'] === 'string' &&
    Array.isArray(v['steps'])
  );
}

/** The RunResult among a failure's details or a memo value, if there is one. */
export function runResultOf(details: readonly unknown[] | unknown): RunResult | undefined {
  const first: unknown = Array.isArray(details) ? details[0] : details;
  return isRunResult(first) ? first : undefined;
}

/**
 * `start-run`'s exit code by outcome (README "Exit codes"), so a script or CI job tells
 * delivered work from a run that changed nothing without parsing output. 2 (usage or
 * configuration error) is decided before any run starts.
 *
 *   0  success: validated and delivered
 *   1  failed or cancelled
 *   3  no-change: nothing delivered; the issue left open with the reason and the needs-human label
 */
export const NO_CHANGE_EXIT_CODE = 3;

export function runExitCode(outcome: RunOutcome): number {
  switch (outcome) {
    case 'success':
      return 0;
    case 'no-change':
      return NO_CHANGE_EXIT_CODE;
    case 'failed':
    case 'cancelled':
      return 1;
  }
}
