/**
 * The run's one state owner: the mutable shell around RunState that the workflow's
 * handlers share. The query reads it; signals and loops change it (see RunSession).
 */
import { log } from '@temporalio/workflow';
import type { PrepareWorkspaceOutput } from '../../../contracts/activities.js';
import type { CarriedRun } from '../../../contracts/carried-run.js';
import type { AgentDefinition } from '../../../contracts/definition.js';
import type { RunInput, RunPhase, RunProgress } from '../../../contracts/run.js';
import { totalTokens, type RunBudget } from '../../../contracts/usage.js';
import { isRepoUrl } from '../../../contracts/repo-url.js';
import type { HumanAnswer, RunWaiting } from '../../../contracts/human-loop.js';
import { budgetStatus, carriedState, initialRunState, type RunState } from './run-state.js';
import { addGuidance, answerWait, raiseBudget, withPhase } from './run-transitions.js';
import { NOTHING_PUBLISHED, publishProgress, type PublishedAttributes } from '../progress-publishing.js';
import { StateOwner } from '../../session/state-owner.js';
import { firstCommentMark, type ProgressCommentMark } from '../progress-publishing.js';

/** Warnings kept (oldest dropped first), so a flood of bad signals cannot grow the result. */
const MAX_WARNINGS = 20;

/**
 * Only this class changes the run's state (the shape of session/state-owner.ts): every
 * change of RunState is a named transition of run/state/ handed to `apply` (or `take`,
 * when it also hands out what it took); the setter is private. Everything else reads.
 *
 * Nine facts are not loop state (the transitions never see them), but the session owns
 * them all the same: each is private, read by a getter, set only by the method beside it.
 *   definition     attachDefinition   the loaded snapshot (its hash and name)
 *   workspace      attachWorkspace    the prepared worktree and branch
 *   maxIterations  attachDefinition   the input's cap, else the definition's
 *   cancelReason   requestCancel      why an operator cancelled
 *   budgetBlocked  blockOnBudget      why a step stopped at the budget (cleared by retry, raiseBudget)
 *   warnings       warn               what an operator should know that did not stop the run
 *                                     (rejectSignal and noteGitRestored warn)
 *   environment    noteEnvironment    what the environment phase and the preflight did, one line each
 *   waiting        waitFor            what the run waits for a person on (cleared by retry, answer)
 *   progressComment  progressCommentSending, progressCommentSent: its id and last edit
 */
export class RunSession extends StateOwner<RunState> {
  #definition?: AgentDefinition;
  #workspace?: PrepareWorkspaceOutput;
  #maxIterations: number;
  #cancelReason?: string;
  #budgetBlocked?: string;
  #waiting?: RunWaiting;
  readonly #warnings: string[] = [];
  readonly #environment: string[] = [];
  #published: PublishedAttributes = NOTHING_PUBLISHED;
  #progressComment: ProgressCommentMark;

  constructor(
    readonly input: RunInput,
    readonly workflowId: string,
  ) {
    super(initialRunState('', input.budget ?? {}));
    this.#maxIterations = input.maxIterations ?? 0;
    this.#progressComment = firstCommentMark(input);
  }

  get definition(): AgentDefinition | undefined {
    return this.#definition;
  }
  get workspace(): PrepareWorkspaceOutput | undefined {
    return this.#workspace;
  }
  get maxIterations(): number {
    return this.#maxIterations;
  }
  get cancelReason(): string | undefined {
    return this.#cancelReason;
  }
  get budgetBlocked(): string | undefined {
    return this.#budgetBlocked;
  }
  get waiting(): RunWaiting | undefined {
    return this.#waiting;
  }
  get warnings(): readonly string[] {
    return this.#warnings;
  }
  get environment(): readonly string[] {
    return this.#environment;
  }
  get progressComment(): ProgressCommentMark {
    return this.#progressComment;
  }
  /** An edit of the progress comment goes out (progress-publishing.ts throttles by these). */
  progressCommentSending(key: string, atMs: number): void {
    this.#progressComment = { ...this.#progressComment, lastKey: key, lastAtMs: atMs };
  }

  /** The activity returned the comment's id: later edits (and a continued run) edit that one. */
  progressCommentSent(commentId: number): void {
    this.#progressComment = { ...this.#progressComment, commentId };
  }

  /** Lines saying what the environment phase detected and did, shown in progress and the result. */
  noteEnvironment(lines: readonly string[]): void {
    this.#environment.push(...lines);
    this.changed();
  }

  /** The definition is loaded: the run's cap comes from the input, else from the definition. */
  attachDefinition(definition: AgentDefinition): void {
    this.#definition = definition;
    this.#maxIterations = this.input.maxIterations ?? definition.maxIterations;
  }

  attachWorkspace(workspace: PrepareWorkspaceOutput): void {
    this.#workspace = workspace;
  }

  /**
   * The run continued as new: it starts from what the previous run carried (its state,
   * definition, worktree, warnings and environment lines), as if it had never stopped.
   */
  continueFrom(carried: CarriedRun): void {
    this.#definition = carried.definition;
    this.#maxIterations = carried.maxIterations;
    this.#workspace = carried.workspace;
    this.#warnings.push(...carried.warnings);
    this.#environment.push(...carried.environment);
    this.apply(carriedState, carried.state as unknown as RunState);
  }

  /** What the next run starts from when this one continues as new (see continueFrom). */
  carry(
    rest: Omit<CarriedRun, 'state' | 'definition' | 'workspace' | 'maxIterations' | 'warnings' | 'environment'>,
  ): CarriedRun | undefined {
    if (this.#definition === undefined || this.#workspace === undefined) return undefined;
    return {
      ...rest,
      state: this.state as unknown as Readonly<Record<string, unknown>>,
      definition: this.#definition,
      workspace: this.#workspace,
      maxIterations: this.#maxIterations,
      warnings: [...this.#warnings],
      environment: [...this.#environment],
    };
  }

  /** A step stopped because its next model call would exceed the budget. */
  blockOnBudget(reason: string): void {
    this.#budgetBlocked = reason;
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
      pendingRetryPrompt:
        s.pendingRetryPrompt !== undefined || s.pendingRetryAddendum !== undefined || s.operatorGuidance !== undefined,
      budget: s.budget,
      completionAttempts: s.completionAttempts,
      ...(this.workspace ? { worktreePath: this.workspace.worktreePath, branch: this.workspace.branch } : {}),
      ...(s.lastError !== undefined ? { lastError: s.lastError } : {}),
      ...(this.budgetBlocked !== undefined ? { lastError: `budget exhausted: ${this.budgetBlocked}` } : {}),
      ...(this.#waiting === undefined ? {} : { waiting: this.#waiting }),
      ...(this.warnings.length > 0 ? { warnings: [...this.warnings] } : {}),
      ...(this.#environment.length > 0 ? { environment: [...this.#environment] } : {}),
      ...(this.workspace?.hostTaskQueue === undefined
        ? {}
        : { host: { taskQueue: this.workspace.hostTaskQueue, pinned: !isRepoUrl(this.input.repoPath) } }),
    };
  }

  /** Every change (and every note an operator sees) republishes the run's details once it has a definition. */
  protected override changed(): void {
    if (this.definition) {
      this.#published = publishProgress(this.progress(), this.#published, Date.now());
    }
  }

  setPhase(phase: RunPhase): void {
    this.apply(withPhase, phase);
  }

  /**
   * A signal whose payload failed its check: ignored, logged, and shown in the run's
   * details and result. Current details are metadata, so this adds nothing to history.
   */
  rejectSignal(signal: string, reason: string): void {
    log.warn('ignored a signal with a bad payload', { signal, reason });
    this.warn(`ignored a "${signal}" signal: ${reason}`);
  }

  /** Something an operator should know that did not stop the run: kept in details and result. */
  warn(message: string): void {
    if (this.#warnings.length >= MAX_WARNINGS) this.#warnings.splice(0, 1);
    this.#warnings.push(message);
    this.changed();
  }

  /** The git-state guard put back what the agent changed in the repository's git config or hooks. */
  noteGitRestored(where: string, restored: readonly string[] | undefined): void {
    if (restored === undefined || restored.length === 0) return;
    log.warn('the agent changed the repository git config or hooks; restored', { where, restored });
    this.warn(`${where}: the agent changed ${restored.join(', ')}; restored to the pre-run snapshot`);
  }

  /** Operator retry (checked payload): the given prompt is guidance added to the next iteration's prompt. */
  requestRetry(prompt: string | undefined): void {
    log.info('retry requested', { withPrompt: prompt !== undefined });
    if (prompt !== undefined) this.apply(addGuidance, prompt);
    this.#budgetBlocked = undefined;
    this.#waiting = undefined;
  }

  /** The run waits for a person (state/budget-pause.ts, state/answer-wait.ts); undefined: it does not. */
  waitFor(waiting: RunWaiting | undefined): void {
    this.#waiting = waiting;
    this.changed();
  }

  /** An answer (checked payload) to the question the run waits on: the asking step's next prompt quotes it. */
  receiveAnswer(answer: HumanAnswer): boolean {
    const waiting = this.#waiting;
    if (waiting?.kind !== 'answer' && waiting?.kind !== 'plan') return false;
    log.info('answer received', { author: answer.author, to: waiting.kind });
    this.#waiting = undefined;
    this.apply(answerWait, waiting, answer);
    return true;
  }

  requestCancel(reason: string | undefined): void {
    this.#cancelReason = reason ?? 'cancel requested';
  }

  raiseBudget(budget: RunBudget): RunBudget {
    this.#budgetBlocked = undefined;
    this.apply(raiseBudget, budget);
    return this.state.budget;
  }

  budgetAvailable(): boolean {
    return this.budgetBlocked === undefined && budgetStatus(this.state).ok;
  }
}
