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
 */
import {
  allHandlersFinished,
  condition,
  isCancellation,
  log,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { PipelineEndStatus, PipelineInput, PipelineResult } from '../../contracts/pipeline-run.js';
import { checkCancelArgs } from '../run/message-validation.js';
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
import {
  PipelineAgentKey,
  PipelineCycleKey,
  PipelineOutcomeKey,
  PipelinePhaseKey,
} from './pipeline-search-attributes.js';
import { initialState, progressOf, renderPipelineDetails, resultOf } from './pipeline-state.js';
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

export async function runPipelineWorkflow(input: PipelineInput): Promise<PipelineResult> {
  const { workflowId, runId } = workflowInfo();
  const definition = input.definition;
  const s = initialState();
  const meta = { workflowId, issue: input.issue, pipeline: definition.id, maxCycles: definition.rules.maxCycles };
  const progress = () => progressOf(s, meta);
  const publish = (): void => setCurrentDetails(renderPipelineDetails(progress()));

  setHandler(pipelineProgressQuery, progress);
  const onSignal = (name: string, apply: (reason: string | undefined) => void) => (args: unknown) => {
    const checked = checkCancelArgs(args);
    if (!checked.ok) return log.warn(`ignored a "${name}" signal with a bad payload`, { reason: checked.reason });
    apply(checked.value.reason);
    publish();
  };
  setHandler(
    pausePipelineSignal,
    onSignal('pause', () => (s.paused = true)),
  );
  setHandler(
    resumePipelineSignal,
    onSignal('resume', () => (s.paused = false)),
  );
  setHandler(cancelPipelineSignal, async (args: unknown) => {
    const checked = checkCancelArgs(args);
    if (!checked.ok) return log.warn('ignored a "cancel" signal with a bad payload', { reason: checked.reason });
    if (s.cancelled !== undefined) return;
    s.cancelled = checked.value.reason ?? 'the pipeline was cancelled by an operator';
    publish();
    if (s.childWorkflowId !== undefined)
      await forwardCancel(s.childWorkflowId, `pipeline ${workflowId} cancelled: ${s.cancelled}`);
  });

  const setPhase = (phase: string): void => {
    if (s.phase === phase) return;
    s.phase = phase;
    upsertSearchAttributes([{ key: PipelinePhaseKey, value: phase }]);
  };

  const finish = async (status: PipelineEndStatus, reason: string): Promise<PipelineResult> => {
    s.status = status;
    s.reason = reason;
    delete s.childWorkflowId;
    publish();
    log.info('pipeline ended', { status, reason, phase: s.phase, cycles: s.history.length });
    await condition(allHandlersFinished);
    return resultOf(s, meta, status, reason);
  };

  publish();
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
    if (s.paused && s.cancelled === undefined) {
      log.info('pipeline paused');
      await condition(() => !s.paused || s.cancelled !== undefined);
    }
    if (s.cancelled !== undefined) return finish('cancelled', s.cancelled);

    const issue = await pipelineActivities.readIssueLabels(ref);
    const resolved = resolvePhase(issue.labels, definition);
    if (resolved.kind !== 'none') setPhase(resolved.phase);
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
    const limit = limitReached(s.history, definition.rules);
    if (limit !== undefined) return finish(limit.kind, limit.reason);
    if (issue.state === 'closed')
      return finish('blocked', `issue #${input.issue} is closed while in actionable phase ${resolved.phase}`);

    const agent = resolved.agent;
    const resolvedAgent = agents[agent.id]!;
    const cycle = s.history.length + 1;
    const childId = childWorkflowId(input.repoId, resolvedAgent.name, input.issue);
    s.agent = agent.id;
    s.childWorkflowId = childId;
    s.cycle = cycle;
    upsertSearchAttributes([
      { key: PipelineCycleKey, value: cycle },
      { key: PipelineAgentKey, value: agent.id },
    ]);
    publish();
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
    delete s.childWorkflowId;
    if (s.cancelled !== undefined) return finish('cancelled', s.cancelled);
    if (end.kind === 'error' && end.cancelled) return finish('cancelled', end.reason);
    if (end.kind === 'result' && end.result.outcome === 'cancelled')
      return finish('cancelled', `the run of ${agent.id} was cancelled: ${end.result.reason}`);

    const outcome = outcomeOf(agent, runEndOf(end));
    if (!outcome.ok) return finish('failed', outcome.reason);
    s.lastOutcome = outcome.outcome;
    upsertSearchAttributes([{ key: PipelineOutcomeKey, value: outcome.outcome }]);
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
    if (effects.closed) s.issueClosed = true;
    s.history.push({
      cycle,
      from: resolved.phase,
      to: target.phase,
      agent: agent.id,
      outcome: outcome.outcome,
      runId: childId,
    });
    publish();
    log.info('transition', { cycle, from: resolved.phase, to: target.phase, outcome: outcome.outcome });

    setPhase(target.phase);
    const reached = phaseById(definition, target.phase)?.type;
    if (reached === PhaseType.Terminal)
      return finish('completed', `issue #${input.issue} reached terminal phase ${target.phase}`);
    if (reached === PhaseType.Blocking)
      return finish(
        'blocked',
        `agent ${agent.id} (${outcome.outcome}) sent issue #${input.issue} to blocking phase ${target.phase}`,
      );
    // The next cycle reads the labels again: they are the truth (a person may relabel meanwhile).
    if (delayMs > 0) await condition(() => s.cancelled !== undefined, delayMs);
  }
}
