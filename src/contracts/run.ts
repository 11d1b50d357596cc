/**
 * The run: its input, its phases, the progress a query returns and the final result.
 */
import type { PlanApprovalPolicy } from './plan-approval.js';
import type { CarriedRun } from './carried-run.js';
import type { DeliveryMode } from './delivery.js';
import type { JsonValue } from './json.js';
import type { FailureType } from './failures.js';
import type { DefinitionOverrides } from './repo-config.js';
import type { Intent, StepKind } from './intents.js';
import type { RunBudget, Usage } from './usage.js';
import type { ProgressCommentSettings } from './progress-comment.js';
import type { UnchangedBranch } from './no-change.js';
import type { RunWaiting } from './human-loop.js';

export const IssueSourceKind = { Local: 'local', GitHub: 'github' } as const;
export type IssueSourceKind = (typeof IssueSourceKind)[keyof typeof IssueSourceKind];

export interface RunInput {
  readonly issue: number;
  /** Absolute path of the agent directory (default agent: the project root holding registry/ and prompts/). */
  readonly agentDir: string;
  /**
   * Absolute path of the target git repository, or its git URL without credentials
   * (contracts/repo-url.ts): then every worker works it in its own clone and delivers by pushing.
   */
  readonly repoPath: string;
  readonly issueSource: IssueSourceKind;
  /** How a validated run is delivered (default: pr with GitHub issues, branch with local issues). */
  readonly delivery?: DeliveryMode;
  readonly budget?: RunBudget;
  /** Agent parameters from the CLI (`--param value`), already typed. */
  readonly parameters?: Readonly<Record<string, string | number | boolean>>;
  /** Where transcripts and large tool outputs go (absolute). */
  readonly artifactsDir: string;
  /** The repository's commands and model (`.agent/config.json` or detected), applied over agent.json. */
  readonly overrides?: DefinitionOverrides;
  /** The repository's AGENTS.md / CLAUDE.md, for `{uv-repo_instructions}` in the system prompt. */
  /**
   * `commands.setup` of the checkout's `.agent/config.json`, read by the client (the user's
   * file, committed or not); absent: the environment phase reads the worktree's, else detects.
   */
  readonly setup?: readonly string[];
  /**
   * The model may write the setup where detection ends (docs/environments/agent-setup.md):
   * set by the client from `.agent/config.json` (on unless `environment.agentSetup` is false
   * or `commands.setup` / `commands.test` are configured); absent: off.
   */
  readonly agentSetup?: boolean;
  readonly repoInstructions?: string;
  /**
   * How long a run whose budget is exhausted waits for `raiseBudget` before it ends
   * stopped (BUDGET_EXHAUSTED); default 24 h (workflows/run/state/budget-pause.ts).
   */
  readonly budgetPauseTimeoutMs?: number;
  /** How long a run waits for an answer to the model's `ask` before it parks; default 3 days. */
  readonly answerTimeoutMs?: number;
  /** When the entry step's plan needs a person's `/approve` before the run goes on (contracts/plan-approval.ts). */
  readonly planApproval?: PlanApprovalPolicy;
  /** Overrides the definition's cap (tests, `.agent/config.json` maxIterations). */
  readonly maxIterations?: number;
  /**
   * Operational tuning; tests shorten the heartbeat timeout to notice a killed worker fast,
   * lower the history bound (events) past which a run continues as new, and the time a
   * remote run's host may leave an activity unstarted before the run moves.
   */
  readonly tuning?: {
    readonly heartbeatTimeoutMs?: number;
    readonly historyEventBound?: number;
    readonly hostLostAfterMs?: number;
  };
  /** `retry` of a failed run: start at this step with the failed run's StepContext. */
  readonly resumeFrom?: ResumePoint;
  /** Set only by the run itself when it continues as new: what the next run starts from. */
  readonly carried?: CarriedRun;
  /** Operator guidance for the first model step (a review's text when the watcher continues a run). */
  readonly guidance?: string;
  /** Keep one progress comment on the issue, edited in place (set by `issue-agent watch`). */
  readonly progressComment?: ProgressCommentSettings;
}

export interface ResumePoint {
  readonly stepId: string;
  readonly stepContext: Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;
  /** The failed run this one continues (Temporal run id), for the record. */
  readonly fromRunId: string;
}

export const RunPhase = {
  Loading: 'loading',
  Preparing: 'preparing',
  /** Installing what the repository's commands need into the worktree (before any model call). */
  Environment: 'environment',
  /** Running each validator command once on the prepared base (before any model call). */
  Preflight: 'preflight',
  Flow: 'flow',
  Closure: 'closure',
  Validating: 'validating',
  Boundary: 'boundary',
  BudgetExhausted: 'budget-exhausted',
  /** The model asked a question (the `ask` tool): the run waits for `reply` (or an issue comment). */
  WaitingForAnswer: 'waiting-for-answer',
  /** Nobody answered within the answer timeout: parked until a `reply` or `retry`. */
  Unanswered: 'unanswered',
  Completed: 'completed',
  /** Ended with nothing to change (outcome `no-change`): the issue waits for a human. */
  NoChange: 'no-change',
  Failed: 'failed',
  Cancelled: 'cancelled',
} as const;
export type RunPhase = (typeof RunPhase)[keyof typeof RunPhase];

export interface StepRecord {
  readonly iteration: number;
  readonly stepId: string;
  readonly stepKind: StepKind;
  readonly intent?: Intent;
  readonly next?: string | null;
  readonly summary: string;
  readonly usage: Usage;
  readonly costUsd: number;
  readonly turns: number;
  readonly transcript?: string;
  /** The worktree checkpoint recorded after the step (contracts/worktree-checkpoint.ts). */
  readonly checkpoint?: string;
  /**
   * A closing step's completion conditions, as the harness judged them after the model
   * answered: `passed`, or `failed: git-clean, tests`. Without it a refused closure read
   * `closure.issue → closing: <the model's own summary>` in the step list, as if it had passed.
   */
  readonly checks?: string;
}

export interface RunProgress {
  readonly workflowId: string;
  readonly issue: number;
  readonly agent: string;
  readonly definitionHash: string;
  readonly phase: RunPhase;
  readonly iteration: number;
  readonly maxIterations: number;
  readonly stepId: string;
  readonly usage: Usage;
  readonly tokensTotal: number;
  readonly costUsd: number;
  readonly steps: readonly StepRecord[];
  readonly worktreePath?: string;
  readonly branch?: string;
  readonly lastError?: string;
  readonly pendingRetryPrompt: boolean;
  readonly budget?: RunBudget;
  readonly completionAttempts: Readonly<Record<string, number>>;
  /** What the run waits for a person on (a raised budget, an answer), and how long. */
  readonly waiting?: RunWaiting;
  /** Things that did not stop the run but an operator should see (e.g. ignored signals). */
  readonly warnings?: readonly string[];
  /** What the environment phase detected and did, and the preflight's verdicts, one line each. */
  readonly environment?: readonly string[];
  /**
   * The host queue holding the run's worktree, and whether the run is pinned to it (a
   * local checkout) or moves when that host is gone (a remote repository).
   */
  readonly host?: { readonly taskQueue: string; readonly pinned: boolean };
}

/**
 * `no-change`: the branch has no change against its base and the closure declared why
 * (contracts/no-change.ts): nothing delivered, the issue left open for a human.
 */
export const RunOutcome = {
  Success: 'success',
  Failed: 'failed',
  Cancelled: 'cancelled',
  NoChange: 'no-change',
} as const;
export type RunOutcome = (typeof RunOutcome)[keyof typeof RunOutcome];

export interface RunResult {
  readonly outcome: RunOutcome;
  /** FailureType code when not successful. */
  readonly code?: FailureType;
  readonly reason: string;
  readonly iterations: number;
  readonly steps: readonly StepRecord[];
  readonly usage: Usage;
  readonly costUsd: number;
  readonly definitionHash: string;
  readonly verdict?: string;
  readonly worktreePath?: string;
  readonly branch?: string;
  /** The delivery's effects, or (outcome `no-change`) the comment and label on the issue. */
  readonly boundary?: BoundaryReport;
  /** Outcome `no-change`: what the closure declared and the base the branch equals. */
  readonly noChange?: UnchangedBranch;
  readonly handoff: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Things that did not stop the run but an operator should see (e.g. ignored signals). */
  readonly warnings?: readonly string[];
  /** As RunProgress.environment. */
  readonly environment?: readonly string[];
}

export const FinalizeStatus = { Success: 'success', Partial: 'partial', Failed: 'failed' } as const;
export type FinalizeStatus = (typeof FinalizeStatus)[keyof typeof FinalizeStatus];

export interface BoundaryEffect {
  readonly name: string; // 'merge' | 'squash' | 'keep-branch' | 'close-issue' | 'remove-worktree' | 'push' | 'open-pr' | 'comment' | 'label'
  readonly status: 'done' | 'already-done' | 'skipped' | 'failed';
  readonly detail: string;
}

export interface BoundaryReport {
  readonly status: FinalizeStatus;
  /** The delivery mode the hook carried out (absent in reports of older runs). */
  readonly delivery?: DeliveryMode;
  readonly effects: readonly BoundaryEffect[];
  readonly pending: readonly string[];
  readonly prUrl?: string;
  /** `branch` delivery: the command that merges the kept branch (run in the repository). */
  readonly mergeCommand?: string;
}
