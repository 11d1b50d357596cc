/**
 * The pipeline workflow: the upstream `.agent/workflow.json` label state machine over one
 * issue, as a durable parent workflow (upstream orchestrator.ts, §6.2). Each cycle:
 * read the labels → resolve the phase → check the limits → dispatch the phase's agent as
 * a child run → outcome → target phase → labels, handoff comment, close → sleep
 * `cycleDelayMs` (a Temporal timer) → again, until a terminal or blocking phase, a limit,
 * a failure or a cancel.
 *
 * One workflow per repository, pipeline and issue is the lock (the Workflow ID); the
 * cycle history lives in the workflow, so a crash resumes in the same cycle and every
 * effect already recorded is not repeated: no lock files, no state files, no outbox.
 * The state: pipeline-session.ts and its named transitions in state/; this file wires the
 * handlers and runs the cycles.
 */
import { allHandlersFinished, condition, isCancellation, log, setHandler, workflowInfo } from '@temporalio/workflow';
import type {
  PipelineEndStatus,
  PipelineInput,
  PipelineResult,
  ResolvedPipelineAgent,
} from '../../contracts/pipeline-run.js';
import { checkCancelArgs } from '../run/message-checks.js';
import { failureInfo } from '../run/failure-info.js';
import { applyCycleEffects } from './cycle-effects.js';
import { limitReached } from './cycle-limits.js';
import { childWorkflowId, dispatchAgent, forwardCancel, type ChildEnd } from './dispatch-agent.js';
import {
  cancelPipelineSignal,
  pausePipelineSignal,
  pipelineProgressQuery,
  resumePipelineSignal,
} from './pipeline-messages.js';
import { pipelineActivities } from './pipeline-proxies.js';
import { PipelineSession } from './pipeline-session.js';
import { phaseById, resolvePhase } from './phase-resolution.js';
import { PhaseType } from '../../contracts/pipeline.js';
import { outcomeOf, targetPhase, type AgentRunEnd } from './transition.js';

function runEndOf(end: ChildEnd): AgentRunEnd {
  if (end.kind === 'error') return { outcome: 'failed' };
  return {
    outcome: end.result.outcome === 'success' ? 'success' : 'failed',
    ...(end.result.verdict === undefined ? {} : { verdict: end.result.verdict }),
  };
}

function wireHandlers(session: PipelineSession, workflowId: string): void {
  setHandler(pipelineProgressQuery, () => session.progress());
  const onSignal = (name: string, apply: (reason: string | undefined) => void) => (args: unknown) => {
    const checked = checkCancelArgs(args);
    if (!checked.ok) return log.warn(`ignored a "${name}" signal with a bad payload`, { reason: checked.reason });
    apply(checked.value.reason);
    session.publish();
  };
  setHandler(
    pausePipelineSignal,
    onSignal('pause', () => session.pause()),
  );
  setHandler(
    resumePipelineSignal,
    onSignal('resume', () => session.resume()),
  );
  setHandler(cancelPipelineSignal, async (args: unknown) => {
    const checked = checkCancelArgs(args);
    if (!checked.ok) return log.warn('ignored a "cancel" signal with a bad payload', { reason: checked.reason });
    if (!session.cancel(checked.value.reason ?? 'the pipeline was cancelled by an operator')) return;
    const child = session.childWorkflowId;
    if (child !== undefined) await forwardCancel(child, `pipeline ${workflowId} cancelled: ${session.cancelled}`);
  });
}

/**
 * Hands the issue's branch to the agent about to run (an activity, so the change of owner
 * is in the pipeline's history); returns why it could not, if so.
 */
async function handOver(input: PipelineInput, agent: ResolvedPipelineAgent): Promise<string | undefined> {
  try {
    const handed = await pipelineActivities.handOverBranch({
      repoPath: input.repoPath,
      issue: input.issue,
      // Agents resolved before the prefix was recorded: the default prefix.
      branchPrefix: agent.branchPrefix ?? 'agent',
      to: agent.name,
      ...(input.repoId === undefined ? {} : { repoId: input.repoId }),
    });
    log.info('branch handed over', { ...handed });
    return undefined;
  } catch (err) {
    if (isCancellation(err)) throw err;
    return failureInfo(err).message;
  }
}

export async function runPipelineWorkflow(input: PipelineInput): Promise<PipelineResult> {
  const { workflowId, runId } = workflowInfo();
  const definition = input.definition;
  const session = new PipelineSession(input, workflowId);
  wireHandlers(session, workflowId);

  const finish = async (status: PipelineEndStatus, reason: string): Promise<PipelineResult> => {
    session.end(status, reason);
    log.info('pipeline ended', { status, reason, phase: session.phase, cycles: session.history.length });
    await condition(allHandlersFinished);
    return session.result(status, reason);
  };

  session.publish();
  let agents: Awaited<ReturnType<typeof pipelineActivities.resolvePipelineAgents>>;
  try {
    agents = await pipelineActivities.resolvePipelineAgents({
      issue: input.issue,
      agents: definition.agents.map((a) => ({ id: a.id, agentDir: a.agentDir })),
      ...(input.parameters ? { parameters: input.parameters } : {}),
      ...(input.overrides ? { overrides: input.overrides } : {}),
    });
  } catch (err) {
    if (isCancellation(err)) throw err;
    // A broken agent stops the pipeline before any dispatch, naming it.
    return finish('failed', `the pipeline's agents did not load: ${failureInfo(err).message}`);
  }
  const ref = { repoPath: input.repoPath, issueSource: input.issueSource, issue: input.issue };
  const delayMs = input.cycleDelayMs ?? definition.rules.cycleDelayMs;

  for (;;) {
    if (session.paused && session.cancelled === undefined) {
      log.info('pipeline paused');
      await condition(() => !session.paused || session.cancelled !== undefined);
    }
    if (session.cancelled !== undefined) return finish('cancelled', session.cancelled);
    const issue = await pipelineActivities.readIssueLabels(ref);
    const resolved = resolvePhase(issue.labels, definition);
    if (resolved.kind !== 'none') session.enterPhase(resolved.phase);
    switch (resolved.kind) {
      case 'terminal':
        return finish('completed', `issue #${input.issue} is in terminal phase ${resolved.phase}`);
      case 'blocking':
        return finish('blocked', `issue #${input.issue} is in blocking phase ${resolved.phase}`);
      case 'none':
        return finish(
          'blocked',
          `no label of issue #${input.issue} maps to a phase (labels: ${issue.labels.join(', ') || 'none'})`,
        );
      case 'no-agent':
        return finish('blocked', `phase ${resolved.phase} names agent ${resolved.agentId}, which is not defined`);
      case 'actionable':
        break;
    }
    const limit = limitReached(session.history, definition.rules);
    if (limit !== undefined) return finish(limit.kind, limit.reason);
    if (issue.state === 'closed')
      return finish('blocked', `issue #${input.issue} is closed while in actionable phase ${resolved.phase}`);

    const agent = resolved.agent;
    const resolvedAgent = agents[agent.id]!;
    const cycle = session.history.length + 1;
    const childId = childWorkflowId(input.repoId, resolvedAgent.name, input.issue);
    // 1 issue = 1 branch = 1 worktree = 1 agent: the phase's agent gets the branch explicitly.
    const refused = await handOver(input, resolvedAgent);
    if (refused !== undefined) return finish('failed', `could not hand the branch to ${agent.id}: ${refused}`);
    session.dispatch(cycle, agent.id, childId);
    log.info('dispatching', { cycle, phase: resolved.phase, agent: agent.id, workflowId: childId });
    let end: ChildEnd;
    try {
      end = await dispatchAgent(
        input,
        resolvedAgent,
        childId,
        `Pipeline ${definition.id} · issue #${input.issue} · cycle ${cycle} · ${resolved.phase} → ${agent.id}`,
      );
    } catch (err) {
      // Temporal's own cancel of the pipeline ends it Canceled (its child got the request too).
      if (isCancellation(err)) throw err;
      return finish('failed', `could not run agent ${agent.id} (${childId}): ${failureInfo(err).message}`);
    }
    session.childEnded();
    if (session.cancelled !== undefined) return finish('cancelled', session.cancelled);
    if (end.kind === 'error' && end.cancelled) return finish('cancelled', end.reason);
    if (end.kind === 'result' && end.result.outcome === 'cancelled')
      return finish('cancelled', `the run of ${agent.id} was cancelled: ${end.result.reason}`);

    const outcome = outcomeOf(agent, runEndOf(end));
    if (!outcome.ok) return finish('failed', outcome.reason);
    session.recordOutcome(outcome.outcome);
    const target = targetPhase(agent, outcome.outcome);
    if (!target.ok) return finish('failed', target.reason);

    const effects = await applyCycleEffects(input, definition, {
      cycle,
      from: resolved.phase,
      to: target.phase,
      agent,
      outcome: outcome.outcome,
      ...(end.kind === 'result' ? { result: end.result } : {}),
      executionKey: `${workflowId}:${runId}`,
    });
    session.recordTransition(
      { cycle, from: resolved.phase, to: target.phase, agent: agent.id, outcome: outcome.outcome, runId: childId },
      effects.closed,
    );
    log.info('transition', { cycle, from: resolved.phase, to: target.phase, outcome: outcome.outcome });

    session.enterPhase(target.phase);
    const reached = phaseById(definition, target.phase)?.type;
    if (reached === PhaseType.Terminal)
      return finish('completed', `issue #${input.issue} reached terminal phase ${target.phase}`);
    if (reached === PhaseType.Blocking)
      return finish(
        'blocked',
        `agent ${agent.id} (${outcome.outcome}) sent issue #${input.issue} to blocking phase ${target.phase}`,
      );
    // The next cycle reads the labels again: they are the truth (a person may relabel meanwhile).
    if (delayMs > 0) await condition(() => session.cancelled !== undefined, delayMs);
  }
}
