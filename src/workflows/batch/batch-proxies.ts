/**
 * The batch workflow's activities, with their option profiles. Selection and label
 * moves are short and idempotent (retried freely); awaiting a run the batch attached
 * to is long and heartbeats, so a dead worker is noticed and the wait resumes elsewhere.
 */
import { ActivityCancellationType, proxyActivities } from '@temporalio/workflow';
import type { BatchActivities } from '../../contracts/batch.js';
import { FailureType } from '../../contracts/failures.js';

const NON_RETRYABLE = Object.values(FailureType).filter(
  (t) =>
    t !== FailureType.ModelRateLimited &&
    t !== FailureType.ModelUnavailable &&
    t !== FailureType.GitHubRateLimited &&
    t !== FailureType.GitHubUnavailable,
);

const retry = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  maximumAttempts: 10,
  nonRetryableErrorTypes: NON_RETRYABLE,
} as const;

/** Listing may page through a remote tracker. */
export const selectActivities = proxyActivities<Pick<BatchActivities, 'listIssues'>>({
  startToCloseTimeout: '5 minutes',
  retry,
});

/** One label change: a short timeout so a killed worker's attempt is retried promptly. */
export const labelActivities = proxyActivities<Pick<BatchActivities, 'relabelIssue'>>({
  startToCloseTimeout: '20 seconds',
  retry,
});

export const awaitActivities = proxyActivities<Pick<BatchActivities, 'awaitRun'>>({
  startToCloseTimeout: '7 days',
  heartbeatTimeout: '30 seconds',
  cancellationType: ActivityCancellationType.TRY_CANCEL,
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', nonRetryableErrorTypes: NON_RETRYABLE },
});
