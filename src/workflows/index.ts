/** Workflow entry points: the bundle the worker loads (workflowsPath). */
export { runAgentWorkflow } from './run-agent.js';
export { runBatchWorkflow } from './batch/run-batch.js';
export { runPipelineWorkflow } from './pipeline/run-pipeline.js';
export { runWatchWorkflow } from './watch/run-watch.js';
