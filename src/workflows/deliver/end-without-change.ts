/**
 * The end of a run that changed nothing, instead of delivery (contracts/no-change.ts):
 * the completion conditions passed, the `branch-changed` condition confirmed the branch
 * equals its base, and the closure declared why no change is needed. So no boundary
 * hook runs (no push, pull request, merge or close): one activity comments the reason
 * and evidence on the issue and labels it for a human, and the run ends with the
 * `no-change` outcome (never success). The verdict is not consulted: a completion type
 * decides whether work may be delivered, and nothing is.
 */
import { log } from '@temporalio/workflow';
import type { ConditionResult } from '../../contracts/activities.js';
import type { JsonObject } from '../../contracts/json.js';
import type { UnchangedBranch } from '../../contracts/no-change.js';
import { boundaryActivities } from '../run/activity-proxies.js';
import { onRunHost } from '../hosting/run-host.js';
import type { IterationOutcome } from '../run/iteration-outcome.js';
import type { RunSession } from '../run/state/run-session.js';
import type { RunContext } from '../run/run-context.js';

export async function endWithoutChange(
  ctx: RunContext,
  session: RunSession,
  output: JsonObject,
  unchanged: UnchangedBranch,
  evidence: readonly ConditionResult[],
): Promise<IterationOutcome> {
  session.setPhase('boundary');
  const summary = typeof output['summary'] === 'string' ? output['summary'] : '';
  log.info('[CompletionLoop] no change against the base, declared by the closure: no delivery', {
    reason: unchanged.declaration.reason,
    base: unchanged.baseCommit,
  });
  const boundary = await onRunHost(ctx, session, (onHost, workspace) =>
    boundaryActivities.reportNoChange.executeWithOptions(
      { summary: `no change · issue #${ctx.input.issue}`, ...onHost },
      [
        {
          workflowId: ctx.workflowId,
          issueSource: ctx.input.issueSource,
          repoPath: ctx.input.repoPath,
          issue: ctx.input.issue,
          branch: workspace.branch,
          unchanged,
          evidence,
          summary,
        },
      ],
    ),
  );
  const effects = boundary.effects
    .filter((e) => e.status !== 'skipped')
    .map((e) => `${e.name} ${e.status}`)
    .join(', ');
  return {
    kind: 'no-change',
    reason: `no change against the base ${unchanged.baseCommit.slice(0, 12)}: the closure declared ${unchanged.declaration.reason}; nothing delivered, issue #${ctx.input.issue} left open for a human (${effects})`,
    unchanged,
    boundary,
  };
}
