/**
 * The run worker's activities (run, batch and pipeline) and the real adapters they use:
 * the module the worker imports in the background while its workflow thread starts.
 */
import type { WorkerActivities } from '../contracts/worker-activities.js';
import { createActivities } from './create-activities.js';
import { createBatchActivities } from './batch/batch-activities.js';
import { createPipelineActivities } from './pipeline/pipeline-activities.js';
import type { ActivityDeps } from './deps.js';

export { createDefaultDeps } from './deps.js';

export function createWorkerActivities(deps: ActivityDeps): WorkerActivities {
  return { ...createActivities(deps), ...createBatchActivities(deps), ...createPipelineActivities(deps) };
}
