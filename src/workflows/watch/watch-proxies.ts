/**
 * The watch workflow's activities and their option profiles: short, idempotent calls
 * retried with backoff (a GitHub outage or a restarting worker only delays a poll).
 */
import { proxyActivities } from '@temporalio/workflow';
import { FailureType } from '../../contracts/failures.js';
import type { WatchActivities } from '../../contracts/watch.js';

const NON_RETRYABLE = [FailureType.GitHubAuth, FailureType.ConfigInvalid, FailureType.IssueNotFound];

export const watchActivities = proxyActivities<WatchActivities>({
  startToCloseTimeout: '2 minutes',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '2 minutes',
    maximumAttempts: 8,
    nonRetryableErrorTypes: NON_RETRYABLE,
  },
});
