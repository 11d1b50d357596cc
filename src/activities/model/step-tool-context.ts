/**
 * The tools' view of one step (ToolContext): its worktree and kind, the run it belongs
 * to (where the todo plan is kept, which issue the github tool acts on), the limits and
 * where the tools record what they changed. Built once per step by runQueryStep.
 */
import type { QueryStepRequest } from '../../contracts/activities.js';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { ChangedPaths } from '../tools/changed-paths.js';
import { DEFAULT_TOOL_LIMITS, type LogFn, type ToolContext } from '../tools/tool-types.js';
import type { QueryStepDeps } from './query-step.js';

export interface StepToolScope {
  readonly signal: AbortSignal;
  readonly store: ArtifactStore;
  readonly log: LogFn;
  readonly changes: ChangedPaths;
}

export function stepToolContext(deps: QueryStepDeps, input: QueryStepRequest, scope: StepToolScope): ToolContext {
  return {
    changes: scope.changes,
    worktreePath: input.worktreePath,
    stepKind: input.stepKind,
    readOnly: input.readOnly,
    signal: scope.signal,
    store: scope.store,
    limits: { ...DEFAULT_TOOL_LIMITS, ...deps.toolLimits },
    log: scope.log,
    ...(deps.bashEnv ? { extraEnv: deps.bashEnv } : {}),
    run: {
      workflowId: input.workflowId,
      issue: input.issue,
      artifactsDir: input.artifactsDir,
      ...(deps.github === undefined ? {} : { github: deps.github }),
    },
  };
}
