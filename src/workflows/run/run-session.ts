/**
 * The mutable shell around RunState that the workflow's handlers share: the query
 * reads it, signals change it, the loops replace it with pure transitions.
 */
import { log } from '@temporalio/workflow';
import type { PrepareWorkspaceOutput, ResolvePromptInput } from '../../contracts/activities.js';
import type { AgentDefinition } from '../../contracts/definition.js';
import type { RunInput, RunPhase, RunProgress } from '../../contracts/run.js';
import { totalTokens, type RunBudget } from '../../contracts/usage.js';
import { checkBudget, initialRunState, raiseBudget, type RunState } from '../flow/run-state.js';
import { publishProgress } from './run-details.js';

/** Immutable once the run has loaded its definition and prepared its worktree. */
export interface RunContext {
  readonly input: RunInput;
  readonly workflowId: string;
  readonly definition: AgentDefinition;
  readonly workspace: PrepareWorkspaceOutput;
  /** How every step resolves the system prompt (resolved once at start to fail fast). */
  readonly system: ResolvePromptInput;
  readonly issueContext: string;
  readonly maxIterations: number;
}

/** Warnings kept (oldest dropped first), so a flood of bad signals cannot grow the result. */
const MAX_WARNINGS = 20;

export class RunSession {
  state: RunState;
  definition?: AgentDefinition;
  workspace?: PrepareWorkspaceOutput;
  maxIterations: number;
  cancelReason?: string;
  /** Set when a step stopped because the next call would exceed the budget. */
  budgetBlocked?: string;
  /** Things an operator should know that did not stop the run (rejected signal payloads). */
  readonly warnings: string[] = [];
  private publishedKey = '';

  constructor(
    readonly input: RunInput,
    readonly workflowId: string,
  ) {
    this.state = initialRunState('', input.budget ?? {});
    this.maxIterations = input.maxIterations ?? 0;
  }

  progress(): RunProgress {
    const s = this.state;
    return {
      workflowId: this.workflowId,
      issue: this.input.issue,
      agent: this.definition?.name ?? '',
      definitionHash: this.definition?.hash ?? '',
      phase: s.phase,
      iteration: s.iteration,
      maxIterations: this.maxIterations,
      stepId: s.stepId,
      usage: s.usage,
      tokensTotal: totalTokens(s.usage),
      costUsd: s.costUsd,
      steps: s.steps,
      pendingRetryPrompt: s.pendingRetryPrompt !== undefined,
      budget: s.budget,
      completionAttempts: s.completionAttempts,
      ...(this.workspace ? { worktreePath: this.workspace.worktreePath, branch: this.workspace.branch } : {}),
      ...(s.lastError !== undefined ? { lastError: s.lastError } : {}),
      ...(this.budgetBlocked !== undefined ? { lastError: `budget exhausted: ${this.budgetBlocked}` } : {}),
      ...(this.warnings.length > 0 ? { warnings: [...this.warnings] } : {}),
    };
  }

  update(next: RunState): void {
    this.state = next;
    if (this.definition) this.publishedKey = publishProgress(this.progress(), this.publishedKey);
  }

  setPhase(phase: RunPhase): void {
    this.update({ ...this.state, phase });
  }

  /**
   * A signal whose payload failed its check: ignored, logged, and shown in the run's
   * details and result. Current details are metadata, so this adds nothing to history.
   */
  rejectSignal(signal: string, reason: string): void {
    log.warn('ignored a signal with a bad payload', { signal, reason });
    if (this.warnings.length >= MAX_WARNINGS) this.warnings.splice(0, 1);
    this.warnings.push(`ignored a "${signal}" signal: ${reason}`);
    this.update(this.state);
  }

  /** Operator retry (checked payload): the given prompt becomes the next iteration's prompt. */
  requestRetry(prompt: string | undefined): void {
    log.info('retry requested', { withPrompt: prompt !== undefined });
    if (prompt !== undefined) this.update({ ...this.state, pendingRetryPrompt: prompt });
    this.budgetBlocked = undefined;
  }

  requestCancel(reason: string | undefined): void {
    this.cancelReason = reason ?? 'cancel requested';
  }

  raiseBudget(budget: RunBudget): RunBudget {
    this.budgetBlocked = undefined;
    this.update(raiseBudget(this.state, budget));
    return this.state.budget;
  }

  budgetAvailable(): boolean {
    return this.budgetBlocked === undefined && checkBudget(this.state).ok;
  }
}
