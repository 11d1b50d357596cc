/**
 * The pipeline workflow's activities: short, idempotent issue effects retried freely
 * (a killed worker's attempt is retried promptly), and the agents' resolution.
 */
import { proxyActivities } from '@temporalio/workflow';
import { FailureType } from '../../contracts/failures.js';
import type { PipelineActivities } from '../../contracts/pipeline-run.js';

const NON_RETRYABLE = Object.values(FailureType).filter(
  (t) => t !== FailureType.GitHubRateLimited && t !== FailureType.GitHubUnavailable,
);

export const pipelineActivities = proxyActivities<PipelineActivities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 10,
    nonRetryableErrorTypes: NON_RETRYABLE,
  },
});
