/**
 * The environment phase as one activity call: `prepareEnvironment`, then `runPreflight`
 * on the prepared base, on the run's host. The two always ran back to back on the same
 * queue, each a round trip of its own (an activity task and one more workflow task);
 * together they are one. Each part keeps its own durability: a retry of the call skips
 * the setup steps already stamped as done and runs the preflight again (it only reads).
 *
 * A preflight that stops the run (a non-retryable failure: a command that cannot run
 * here) is returned, not thrown, so the workflow still gets the environment's report
 * (its lines, and what it detected, which the agent-written setup starts from) and
 * raises the same failure itself.
 */
import type { EnvironmentReport, PrepareEnvironmentInput } from './environment.js';
import type { PreflightInput, PreflightReport } from './preflight.js';

export interface EnvironmentAndPreflightInput {
  readonly environment: PrepareEnvironmentInput;
  readonly preflight: PreflightInput;
}

/** The preflight's non-retryable failure, as it was thrown. */
export interface PreflightStop {
  readonly type?: string;
  readonly message: string;
  readonly details: readonly unknown[];
}

export type EnvironmentAndPreflightOutput =
  | { readonly environment: EnvironmentReport; readonly preflight: PreflightReport; readonly stopped?: undefined }
  | { readonly environment: EnvironmentReport; readonly preflight?: undefined; readonly stopped: PreflightStop };
