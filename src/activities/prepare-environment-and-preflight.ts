/**
 * The environment phase's two activities as one call (contracts/environment-and-preflight.ts):
 * composition only, each part is the activity the worker also registers on its own (the
 * agent-written setup and a moved run call them apart). Both heartbeat through the one
 * activity context they run in.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { RunActivities } from '../contracts/activities.js';
import type {
  EnvironmentAndPreflightInput,
  EnvironmentAndPreflightOutput,
} from '../contracts/environment-and-preflight.js';

export function prepareEnvironmentAndPreflight(
  parts: Pick<RunActivities, 'prepareEnvironment' | 'runPreflight'>,
): (input: EnvironmentAndPreflightInput) => Promise<EnvironmentAndPreflightOutput> {
  return async (input) => {
    const environment = await parts.prepareEnvironment(input.environment);
    try {
      return { environment, preflight: await parts.runPreflight(input.preflight) };
    } catch (err) {
      // Retryable failures (a lost connection, a dead command runner) retry the call; the setup skips what it did.
      if (!(err instanceof ApplicationFailure) || !err.nonRetryable) throw err;
      return {
        environment,
        stopped: {
          ...(err.type === undefined || err.type === null ? {} : { type: err.type }),
          message: err.message,
          details: err.details ?? [],
        },
      };
    }
  };
}
