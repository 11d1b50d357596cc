/**
 * The run workflow: one issue, one branch, one worktree, one agent (docs/concepts.md#run).
 * Loads the definition once (the snapshot lands in history), prepares the worktree,
 * then runs the Flow loop until the Completion loop says done, a fail-fast rule
 * stops it, the iteration cap is reached, or an operator cancels it.
 */
import {
  ApplicationFailure,
  CancellationScope,
  ContinueAsNew,
  isCancellation,
  log,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { FailureType } from '../contracts/failures.js';
import type { RunInput, RunResult } from '../contracts/run.js';
import type { RunBudget } from '../contracts/usage.js';
import { formatIssueContext, systemPromptInput } from '../contracts/step-inputs.js';
import { localConfigActivities, workspaceActivities } from './run/activity-proxies.js';
import { codeAndReason, failureInfo } from './run/failure-info.js';
import { runFlowIteration } from './flow/flow-iteration.js';
import { withinClosureGrace } from './completion/criterion-gate.js';
import { applicableResume } from '../contracts/resume-point.js';
import type { IterationOutcome } from './run/iteration-outcome.js';
import { cancelSignal, progressQuery, raiseBudgetSignal, raiseBudgetUpdate, retrySignal } from './run/messages.js';
import { checkBudgetArgs, checkCancelArgs, checkRetryArgs, validateBudgetUpdate } from './run/message-checks.js';
import { setHumanLoopHandlers } from './run/state/human-loop-handlers.js';
import { awaitAnswer } from './run/state/answer-wait.js';
import { awaitPlanApproval } from './run/state/plan-wait.js';
import { AgentNameKey, DefinitionHashKey, IssueNumberKey } from './run/search-attributes.js';
import { RunSession } from './run/state/run-session.js';
import type { RunContext } from './run/run-context.js';
import { endRun, startAt } from './run/state/run-transitions.js';
import { runEnvironmentPhase } from './environment/environment-phase.js';
import { awaitBudget } from './run/state/budget-pause.js';
import { endWithStatus, watchCancelRequest } from './run/end-with-status.js';
import { continueAsNext, historyPastBound, resumeCarried } from './run/continue-as-new.js';
import { editProgressComment, endProgressComment } from './run/progress-publishing.js';
import { endPhaseOf, toResult, type RunEnd } from './run/state/run-end-result.js';

const TEMPORAL_CANCEL_REASON = 'cancelled through Temporal (Web UI or temporal workflow cancel)';

/** The validator has already accepted it; checked again so the handler never trusts a payload. */
function checkedBudget(budget: unknown): RunBudget {
  const checked = checkBudgetArgs(budget);
  if (!checked.ok) throw ApplicationFailure.nonRetryable(checked.reason, 'INVALID_PAYLOAD');
  return checked.value;
}

async function prepare(session: RunSession): Promise<RunContext> {
  const { input } = session;
  if (input.carried !== undefined) return resumeCarried(session, input.carried);
  session.setPhase('loading');
  const definition = await localConfigActivities.loadDefinition({
    agentDir: input.agentDir,
    ...(input.overrides === undefined ? {} : { overrides: input.overrides }),
  });
  session.attachDefinition(definition);
  const budget: RunBudget = { maxTurnsPerStep: definition.model.maxTurnsPerStep, ...input.budget };
  // `retry` of a failed run: start where it stopped, with its StepContext (no new commands).
  const resume = applicableResume(input.resumeFrom, definition.steps);
  session.apply(startAt, {
    stepId: resume?.stepId ?? definition.entryStep,
    ...(resume === undefined ? {} : { stepContext: resume.stepContext }),
    budget,
  });
  if (resume !== undefined) log.info(`resuming failed run ${resume.fromRunId} at step ${resume.stepId}`);
  upsertSearchAttributes([
    { key: AgentNameKey, value: definition.name },
    { key: DefinitionHashKey, value: definition.hash },
    { key: IssueNumberKey, value: input.issue },
  ]);

  session.setPhase('preparing');
  const workspace = await workspaceActivities.prepareWorkspace({
    repoPath: input.repoPath,
    issue: input.issue,
    issueSource: input.issueSource,
    worktreeRoot: definition.worktree.root,
    branchPrefix: definition.worktree.branchPrefix,
    agent: definition.name,
  });
  session.attachWorkspace(workspace);
  const system = systemPromptInput(definition, input.issue, workspace.branch, input.repoInstructions);
  // Resolved once here so a broken system prompt stops the run before any model call.
  await localConfigActivities.resolvePrompt(system);
  // The agent-written setup may replace the test command: the run (and a continue-as-new) goes on with that.
  const prepared = await runEnvironmentPhase(session, definition);
  if (prepared !== definition) session.attachDefinition(prepared);
  return {
    input,
    workflowId: session.workflowId,
    definition: prepared,
    // The current one: a run on a remote repository moves to another host when its host is gone (hosting/run-host.ts).
    get workspace() {
      return session.workspace ?? workspace;
    },
    system,
    issueContext: formatIssueContext(workspace.issue),
    maxIterations: session.maxIterations,
  };
}

async function runLoop(session: RunSession, ctx: RunContext): Promise<IterationOutcome> {
  for (;;) {
    await editProgressComment(session);
    if (session.state.iteration >= ctx.maxIterations && !withinClosureGrace(ctx, session)) {
      return {
        kind: 'failed',
        code: FailureType.MaxIterations,
        reason: `stopped: reached the cap of ${ctx.maxIterations} iterations without a validated completion (no boundary effect)`,
      };
    }
    if (!session.budgetAvailable()) {
      const stopped = await awaitBudget(session);
      if (stopped !== undefined) return stopped;
    }
    const outcome = await runFlowIteration(ctx, session);
    switch (outcome.kind) {
      case 'continue':
        // Between iterations only, and never with a cancel on its way (the next run would not see it).
        if (session.cancelReason === undefined && historyPastBound(ctx.input))
          await continueAsNext(session, ctx, session.progressComment.commentId);
        continue;
      case 'budget-exhausted':
        session.blockOnBudget(outcome.reason);
        continue;
      case 'question':
        await awaitAnswer(session, outcome.question, () => editProgressComment(session));
        continue;
      case 'plan':
        // Approved: the state moved on to outcome.next; a change request: the plan step runs again.
        await awaitPlanApproval(session, outcome, () => editProgressComment(session));
        continue;
      case 'done':
      case 'no-change':
      case 'failed':
        return outcome;
    }
  }
}

export async function runAgentWorkflow(input: RunInput): Promise<RunResult> {
  const session = new RunSession(input, workflowInfo().workflowId);
  // As a `retry` signal's prompt would be, without the race of a signal sent after the start.
  if (input.guidance !== undefined) session.requestRetry(input.guidance);
  const cancelRequested = watchCancelRequest();
  const scope = new CancellationScope();
  setHandler(progressQuery, () => session.progress());
  // Payloads are unknown until checked: a handler that throws would fail the workflow task forever.
  setHandler(retrySignal, (args: unknown) => {
    const checked = checkRetryArgs(args);
    if (!checked.ok) return session.rejectSignal('retry', checked.reason);
    session.requestRetry(checked.value.prompt);
  });
  setHandler(cancelSignal, (args: unknown) => {
    const checked = checkCancelArgs(args);
    if (!checked.ok) return session.rejectSignal('cancel', checked.reason);
    session.requestCancel(checked.value.reason);
    scope.cancel();
  });
  setHandler(raiseBudgetSignal, (budget: unknown) => {
    const checked = checkBudgetArgs(budget);
    if (!checked.ok) return session.rejectSignal('raiseBudget', checked.reason);
    session.raiseBudget(checked.value);
  });
  setHandler(raiseBudgetUpdate, (budget: unknown) => session.raiseBudget(checkedBudget(budget)), {
    validator: validateBudgetUpdate,
  });
  setHumanLoopHandlers(session);

  let outcome: RunEnd;
  try {
    outcome = await scope.run(async () => runLoop(session, await prepare(session)));
  } catch (err) {
    // Continue-as-new ends this run by throwing: it is not a failure.
    if (err instanceof ContinueAsNew) throw err;
    const info = failureInfo(err);
    if (isCancellation(err) || info.cancelled) {
      // Cancelled through Temporal itself (Web UI / `temporal workflow cancel`) when no signal gave a reason.
      outcome = { kind: 'cancelled', reason: session.cancelReason ?? TEMPORAL_CANCEL_REASON };
    } else {
      outcome = { kind: 'failed', code: info.type ?? FailureType.Aborted, reason: info.message };
    }
  }
  const result = toResult(session, outcome);
  session.apply(
    endRun,
    endPhaseOf(result.outcome),
    result.outcome === 'failed' ? codeAndReason(String(result.code), result.reason) : undefined,
  );
  log.info('run finished', { outcome: result.outcome, code: result.code, reason: result.reason });
  await endProgressComment(session, result);
  return result.outcome === 'success' ? result : endWithStatus(result, cancelRequested);
}
