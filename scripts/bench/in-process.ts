/**
 * The baseline for the orchestration overhead: the same run as the workflow (load,
 * prepare the worktree, the environment phase (setup, then preflight of the validators on
 * the base: part of the job, not of durability), per step: one model step activity
 * resolving schema and prompt; then validators and the boundary hook), as a plain in-process loop calling the very same activity
 * functions (`createActivities(createDefaultDeps(...))`) one after the other, inside
 * a MockActivityEnvironment (an activity Context for heartbeats, no Temporal server).
 * Routing and StepContext use the same pure functions the workflow uses.
 */
import {
  buildPromptVariables,
  formatIssueContext,
  stepPromptInput,
  stepSchemaInput,
  systemPromptInput,
} from '../../src/contracts/step-inputs.js';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../../src/activities/create-activities.js';
import { createDefaultDeps } from '../../src/activities/deps.js';
import type { QueryStepOutput } from '../../src/contracts/activities.js';
import type { RunInput } from '../../src/contracts/run.js';
import { initialRunState, remainingBudget } from '../../src/workflows/run/state/run-state.js';
import { beginIteration, goToStep, recordAnsweredStep } from '../../src/workflows/run/state/run-transitions.js';
import { interpretGate } from '../../src/workflows/flow/gate-interpreter.js';
import { routeIntent } from '../../src/workflows/flow/intent-router.js';
import { normaliseStepId } from '../../src/workflows/flow/gate-interpreter.js';

export interface InProcessResult {
  readonly outcome: 'success' | 'failed';
  readonly reason: string;
  readonly steps: number;
  readonly wallMs: number;
  /** performance.now() when the run began, and when each step's model query returned. */
  readonly startedAt: number;
  readonly stepEnds: readonly number[];
}

export async function runInProcess(input: RunInput, modelUrl: string): Promise<InProcessResult> {
  const acts = createActivities(
    createDefaultDeps({ PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_BASE_URL: modelUrl }),
  );
  const logger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} } as never;
  // One activity context per call, as the worker gives each activity (its cancellation signal's
  // listeners go with it; one shared context collected them and warned MaxListenersExceeded).
  const call = <I, O>(fn: (i: I) => Promise<O>, i: I): Promise<O> =>
    new MockActivityEnvironment(undefined, { logger }).run(fn as never, i as never) as Promise<O>;
  const started = performance.now();
  const stepEnds: number[] = [];
  const finish = (outcome: 'success' | 'failed', reason: string, steps: number): InProcessResult => ({
    outcome,
    reason,
    steps,
    wallMs: performance.now() - started,
    startedAt: started,
    stepEnds,
  });

  const definition = await call(acts.loadDefinition, { agentDir: input.agentDir });
  const maxIterations = input.maxIterations ?? definition.maxIterations;
  const workspace = await call(acts.prepareWorkspace, {
    repoPath: input.repoPath,
    issue: input.issue,
    issueSource: input.issueSource,
    worktreeRoot: definition.worktree.root,
    branchPrefix: definition.worktree.branchPrefix,
    agent: definition.name,
  });
  const workflowId = `inprocess-${Date.now()}-issue-${input.issue}`;
  const system = systemPromptInput(definition, input.issue, workspace.branch);
  // As the workflow does: resolved once up front, passed by reference to each step.
  await call(acts.resolvePrompt, system);
  // As the workflow's environment phase does (environment/environment-phase.ts), before the first model call.
  await call(acts.prepareEnvironment, { worktreePath: workspace.worktreePath, repoPath: input.repoPath });
  await call(acts.runPreflight, {
    worktreePath: workspace.worktreePath,
    completionSteps: Object.values(definition.completionSteps),
    validators: definition.validators,
  });
  let state = initialRunState(definition.entryStep, {
    maxTurnsPerStep: definition.model.maxTurnsPerStep,
    ...input.budget,
  });
  for (;;) {
    if (state.iteration >= maxIterations)
      return finish('failed', `reached ${maxIterations} iterations`, state.steps.length);
    const step = definition.steps[state.stepId];
    if (step === undefined) return finish('failed', `unknown step ${state.stepId}`, state.steps.length);
    state = beginIteration(state, state.iteration + 1, step.stepKind);
    const variables = buildPromptVariables({
      parameters: input.parameters ?? {},
      iteration: state.iteration,
      maxIterations,
      previousSummary: state.previousSummary,
      issue: workspace.issue,
      stepContext: state.stepContext,
      agentName: definition.name,
      branch: workspace.branch,
    });
    // As the workflow does ('one-activity-step'): the step activity resolves prompt and schema.
    const answer: QueryStepOutput = await call(acts.queryStep, {
      workflowId,
      issue: input.issue,
      stepId: step.stepId,
      stepKind: step.stepKind,
      iteration: state.iteration,
      worktreePath: workspace.worktreePath,
      artifactsDir: input.artifactsDir,
      system,
      issueContext: formatIssueContext(workspace.issue),
      stepPrompt: stepPromptInput(definition, step, variables),
      stepSchema: stepSchemaInput(definition, step),
      model: definition.model,
      readOnly: step.readOnly,
      budget: remainingBudget(state),
    });
    stepEnds.push(performance.now());
    const output = normaliseStepId(answer.output, step.stepId).output;
    const gate = interpretGate(step, output);
    if (!gate.ok) return finish('failed', gate.reason, state.steps.length);
    const route = routeIntent({
      definition,
      step,
      intent: gate.intent,
      handoff: gate.handoff,
      ...(gate.target === undefined ? {} : { target: gate.target }),
    });
    state = recordAnsweredStep(state, gate.handoff, {
      iteration: state.iteration,
      stepId: step.stepId,
      stepKind: step.stepKind,
      intent: gate.intent,
      summary: answer.summary,
      usage: answer.usage,
      costUsd: answer.costUsd,
      turns: answer.turns,
    });
    if (route.kind === 'goto') {
      state = goToStep(state, route.stepId);
      continue;
    }
    if (route.kind !== 'closing')
      return finish('failed', route.kind === 'abort' ? route.reason : route.reason, state.steps.length);
    const completionStep =
      definition.completionSteps[step.stepId] ??
      (Object.values(definition.completionSteps).length === 1
        ? Object.values(definition.completionSteps)[0]
        : undefined);
    const report = completionStep
      ? await call(acts.runValidators, {
          worktreePath: workspace.worktreePath,
          completionStep,
          validators: definition.validators,
        })
      : { passed: true, results: [] };
    if (!report.passed) return finish('failed', 'validators failed', state.steps.length);
    const boundary = await call(acts.runBoundaryHook, {
      workflowId,
      mode: input.issueSource,
      repoPath: input.repoPath,
      worktreePath: workspace.worktreePath,
      branch: workspace.branch,
      baseBranch: workspace.baseBranch,
      issue: input.issue,
      closureAction: definition.closureAction,
      labels: definition.completionLabels,
      summary: typeof output['summary'] === 'string' ? output['summary'] : '',
      evidence: report.results,
    });
    return finish('success', `boundary ${boundary.status}`, state.steps.length);
  }
}
