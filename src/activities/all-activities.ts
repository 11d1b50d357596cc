/**
 * The run worker's activities (run, batch and pipeline) and the real adapters they use:
 * the module the worker imports in the background while its workflow thread starts.
 */
import type { WorkerActivities } from '../contracts/worker-activities.js';
import { createActivities } from './create-activities.js';
import { createBatchActivities } from './batch/batch-activities.js';
import { createPipelineActivities } from './pipeline/pipeline-activities.js';
import type { ActivityDeps } from './deps.js';
import { createWatchActivities } from './watch/watch-activities.js';
import { createProgressActivities } from './watch/progress-comment-activity.js';
import { createWatchConnector } from './watch/watch-connector.js';
import { createLocalIssueStore } from './issues/local-issue-store.js';
import { redactorForEnv } from './edge/secret-redactor.js';
import { createRunEndActivities } from './run-end/run-end-activities.js';
import { createHumanLoopActivities } from './issues/issue-notice.js';

export { createDefaultDeps } from './deps.js';

export function createWorkerActivities(deps: ActivityDeps): WorkerActivities {
  const env = deps.boundary?.env ?? process.env;
  const watch = {
    github: createWatchConnector(env),
    issueSource: deps.issueSource,
    local: createLocalIssueStore,
    redact: deps.redact ?? redactorForEnv(env),
  };
  return {
    ...createActivities(deps),
    ...createBatchActivities(deps),
    ...createPipelineActivities(deps),
    ...createWatchActivities(watch),
    ...createProgressActivities(watch),
    ...createRunEndActivities(),
    ...createHumanLoopActivities(watch),
  };
}
