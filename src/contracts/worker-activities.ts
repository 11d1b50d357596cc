/**
 * Every activity a run worker registers (run, batch and pipeline workflows), by name. The
 * worker registers them before their implementations are loaded (src/worker/lazy-activities.ts),
 * so that loading them overlaps the start of its workflow thread; the `satisfies` below
 * fails to compile when this list and the interfaces part ways.
 */
import type { RunActivities } from './activities.js';
import type { BatchActivities } from './batch.js';
import type { PipelineActivities } from './pipeline-run.js';
import type { ProgressActivities } from './progress-comment.js';
import type { RunEndActivities } from './run-end.js';
import type { HumanLoopActivities } from './human-loop.js';
import type { WatchActivities } from './watch.js';

export type WorkerActivities = RunActivities &
  BatchActivities &
  PipelineActivities &
  WatchActivities &
  ProgressActivities &
  RunEndActivities &
  HumanLoopActivities;

const NAMES = {
  loadDefinition: true,
  prepareWorkspace: true,
  resolvePrompt: true,
  queryStep: true,
  runValidators: true,
  runPreflight: true,
  prepareEnvironment: true,
  prepareEnvironmentAndPreflight: true,
  writeEnvironmentSetup: true,
  keepEnvironmentSetup: true,
  buildRetryPrompt: true,
  runBoundaryHook: true,
  reportNoChange: true,
  checkExternalState: true,
  evaluateCustomVerdict: true,
  runStepRunner: true,
  listIssues: true,
  relabelIssue: true,
  awaitRun: true,
  resolvePipelineAgents: true,
  readIssueLabels: true,
  applyPipelineLabels: true,
  postPipelineComment: true,
  closePipelineIssue: true,
  handOverBranch: true,
  pollWatch: true,
  checkRuns: true,
  pickUpIssue: true,
  postWatchReply: true,
  replyRunStatus: true,
  updateProgressComment: true,
  cancelOwnRun: true,
  postIssueNotice: true,
} as const satisfies Record<keyof WorkerActivities, true>;

export const WORKER_ACTIVITY_NAMES = Object.keys(NAMES) as ReadonlyArray<keyof WorkerActivities>;
