/**
 * The single place the run workflow proxies activities, with one named option
 * profile per activity class. Timeouts and retry policies live here, never at call
 * sites. Whether a failure is retried is decided where it is known: each activity
 * throws typed ApplicationFailures marked non-retryable or not (src/activities/edge/to-failure.ts).
 */
import { ActivityCancellationType, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { RunActivities } from '../../contracts/activities.js';
import type { ProgressActivities } from '../../contracts/progress-comment.js';
import type { RunEndActivities } from '../../contracts/run-end.js';
import type { HumanLoopActivities } from '../../contracts/human-loop.js';

/** Reading files: fast, retried a few times for transient I/O. */
const configOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
} as const;

type ConfigActivities = Pick<
  RunActivities,
  'loadDefinition' | 'resolvePrompt' | 'buildRetryPrompt' | 'keepEnvironmentSetup'
>;

export const configActivities = proxyActivities<ConfigActivities>(configOptions);

/**
 * The run's start loads the definition and resolves the system prompt as local
 * activities. Why: both read files on the workflow's own queue and
 * last a few ms, yet each was a round trip of its own (schedule, start, complete, then one
 * more workflow task: ~12 ms per call in `npm run bench`'s histories); a local activity runs
 * inside the workflow task that asks for it and lands in history as one marker with the
 * same result. Its retries stay in the worker that runs the workflow.
 */
export const localConfigActivities =
  proxyLocalActivities<Pick<ConfigActivities, 'loadDefinition' | 'resolvePrompt'>>(configOptions);

/**
 * One step's conversation with the model. Long, heartbeating every turn (and on an
 * interval while tools run), so a dead worker is noticed within the heartbeat timeout
 * and the retry resumes from the last completed turn. Provider outages are retried
 * with backoff for a long time: a run waits out an outage instead of failing.
 */
export const modelActivityOptions = {
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '60 seconds',
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 25 },
} as const;

export const modelActivities =
  proxyActivities<Pick<RunActivities, 'queryStep' | 'writeEnvironmentSetup'>>(modelActivityOptions);

/** Commands in the worktree: validators and git. */
export const workspaceActivities = proxyActivities<
  Pick<
    RunActivities,
    'prepareWorkspace' | 'runValidators' | 'runPreflight' | 'checkExternalState' | 'evaluateCustomVerdict'
  >
>({
  startToCloseTimeout: '20 minutes',
  heartbeatTimeout: '60 seconds',
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: { initialInterval: '2 seconds', maximumAttempts: 5 },
});

/**
 * The environment phase: installs with the network (a cold install may take many minutes),
 * heartbeating at each step and every few seconds. A failed setup command is a
 * non-retryable ENVIRONMENT_FAILED; a dead worker or a lost connection is retried, and
 * the activity is idempotent (finished steps are stamped and skipped).
 */
export const environmentActivities = proxyActivities<Pick<RunActivities, 'prepareEnvironment'>>({
  startToCloseTimeout: '45 minutes',
  heartbeatTimeout: '60 seconds',
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

/**
 * The environment phase in one call (contracts/environment-and-preflight.ts): the setup's
 * time and the preflight's (a test suite: up to 20 minutes) together. Retried like the
 * preflight alone was: a retry skips the setup steps already done and runs the preflight again.
 */
export const environmentPhaseActivities = proxyActivities<Pick<RunActivities, 'prepareEnvironmentAndPreflight'>>({
  startToCloseTimeout: '65 minutes',
  heartbeatTimeout: '60 seconds',
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 5 },
});

/**
 * A closure step's subprocess runner (e.g. a merge script): never retried by Temporal,
 * since its effect may have happened; a failed exit is a result the flow handles.
 */
export const runnerActivities = proxyActivities<Pick<RunActivities, 'runStepRunner'>>({
  startToCloseTimeout: '20 minutes',
  heartbeatTimeout: '60 seconds',
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: { maximumAttempts: 1 },
});

/** Boundary effects: idempotent, so they may be retried freely. */
export const boundaryActivities = proxyActivities<Pick<RunActivities, 'runBoundaryHook' | 'reportNoChange'>>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '60 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

/** The progress comment (progress-publishing.ts): short and idempotent; a failure never fails the run. */
export const progressActivities = proxyActivities<ProgressActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/** The run's own cancel request (end-with-status.ts): one short client call, retried briefly. */
export const runEndActivities = proxyActivities<RunEndActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 5 },
});

/** A waiting run's notice on its issue (state/budget-pause.ts, state/answer-wait.ts): idempotent; a failure never fails the run. */
export const humanLoopActivities = proxyActivities<HumanLoopActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});
