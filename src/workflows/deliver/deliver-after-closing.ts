/**
 * Delivery, the done half of stage 3 of the Completion loop: after a closure step's
 * validated `closing` and a done verdict, the boundary hook (push, PR, merge, issue
 * close) runs, the only place with effects outside the worktree, and the run ends.
 * Success means delivered: validated work whose delivery did not fully happen fails
 * the run, naming what happened and what is left to do.
 */
import type { ConditionResult } from '../../contracts/activities.js';
import { agentSetupSnippetOf } from '../../contracts/agent-setup.js';
import { ClosureAction, type LabelChange } from '../../contracts/definition.js';
import { deliveryModeOf, undeliveredEffect } from '../../contracts/delivery.js';
import { FailureType } from '../../contracts/failures.js';
import { isJsonObject, type JsonObject } from '../../contracts/json.js';
import type { BoundaryReport } from '../../contracts/run.js';
import { baselineAccountLine, baselineAccountOf } from '../../contracts/pre-existing-claims.js';
import { boundaryActivities } from '../run/activity-proxies.js';
import { onRunHost } from '../hosting/run-host.js';
import type { IterationOutcome } from '../run/iteration-outcome.js';
import type { RunSession } from '../run/state/run-session.js';
import type { RunContext } from '../run/run-context.js';

/** The closure output may choose the action (`closure_action`) and add labels (`issue.labels`). */
function closureActionOf(ctx: RunContext, output: JsonObject): ClosureAction {
  const chosen = output['closure_action'];
  return typeof chosen === 'string' && (Object.values(ClosureAction) as string[]).includes(chosen)
    ? (chosen as ClosureAction)
    : ctx.definition.closureAction;
}

function labelsOf(ctx: RunContext, output: JsonObject): LabelChange {
  const issue = output['issue'];
  const labels = isJsonObject(issue) && isJsonObject(issue['labels']) ? issue['labels'] : {};
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return {
    add: [...new Set([...ctx.definition.completionLabels.add, ...strings(labels['add'])])],
    remove: [...new Set([...ctx.definition.completionLabels.remove, ...strings(labels['remove'])])],
  };
}

/** The boundary hook, the only place with effects outside the worktree. */
export async function runBoundary(
  ctx: RunContext,
  session: RunSession,
  output: JsonObject,
  evidence: readonly ConditionResult[],
): Promise<BoundaryReport> {
  session.setPhase('boundary');
  const summary = typeof output['summary'] === 'string' ? output['summary'] : '';
  const setup = agentSetupSnippetOf(session.environment);
  return onRunHost(ctx, session, (onHost, workspace) =>
    boundaryActivities.runBoundaryHook.executeWithOptions(
      {
        summary: `boundary hook · issue #${ctx.input.issue}`,
        ...onHost,
        ...(ctx.input.tuning?.heartbeatTimeoutMs === undefined
          ? {}
          : { heartbeatTimeout: ctx.input.tuning.heartbeatTimeoutMs }),
      },
      [
        {
          workflowId: ctx.workflowId,
          mode: ctx.input.issueSource,
          delivery: deliveryModeOf(ctx.input),
          repoPath: ctx.input.repoPath,
          worktreePath: workspace.worktreePath,
          branch: workspace.branch,
          baseBranch: workspace.baseBranch,
          issue: ctx.input.issue,
          closureAction: closureActionOf(ctx, output),
          labels: labelsOf(ctx, output),
          summary,
          evidence,
          ...(setup === undefined ? {} : { environmentSetup: setup }),
        },
      ],
    ),
  );
}

/** The run's successful end, after the boundary hook ran. */
export function doneOutcome(
  output: JsonObject,
  evidence: readonly ConditionResult[],
  boundary: BoundaryReport,
  why: string,
): IterationOutcome {
  // Success means delivered: validated work whose delivery did not fully happen fails
  // the run, with what happened and what is left to do.
  if (boundary.status !== 'success') return undelivered(boundary, evidence.length);
  const verdict = typeof output['verdict'] === 'string' ? output['verdict'] : undefined;
  // The closure's claims about tests red on the base, and the tests fixed, in the run's summary (issue 37).
  const account = baselineAccountLine(baselineAccountOf(evidence));
  return {
    kind: 'done',
    reason: `${why.replace(/\.$/, '')} (${evidence.length} completion condition(s) checked; boundary ${boundary.status})${account ? `; ${account}` : ''}`,
    boundary,
    ...(verdict === undefined ? {} : { verdict }),
  };
}

/** Stage 3, done: the boundary hook, then the run ends. */
export async function finishRun(
  ctx: RunContext,
  session: RunSession,
  output: JsonObject,
  evidence: readonly ConditionResult[],
  why: string,
): Promise<IterationOutcome> {
  const boundary = await runBoundary(ctx, session, output, evidence);
  return doneOutcome(output, evidence, boundary, why);
}

function undelivered(boundary: BoundaryReport, checked: number): IterationOutcome {
  const why = undeliveredEffect(boundary);
  const pending = boundary.pending.length ? `; to finish: ${boundary.pending.join('; ')}` : '';
  return {
    kind: 'failed',
    code: FailureType.BoundaryFailed,
    reason: `validated (${checked} completion condition(s) checked), but ${boundary.delivery ?? 'the'} delivery is ${boundary.status}${why ? ` (${why})` : ''}${pending}`,
    boundary,
  };
}
