/**
 * The batch (docs/concepts.md#batch): which issues, how many at once,
 * the label state machine (ready → in-progress → done | blocked), the progress a query
 * returns and the result table. Shared by the batch workflow, its activities and the CLI.
 */
import type { IssueSnapshot } from './activities.js';
import type { DeliveryMode } from './delivery.js';
import type { FailureType } from './failures.js';
import type { IssueSourceKind, RunInput, RunResult } from './run.js';
import type { RunBudget } from './usage.js';

/** Which issues a batch works. */
export type BatchSelection =
  /** Every open issue carrying the label. */
  | { readonly kind: 'label'; readonly label: string }
  /** Exactly these issues (closed ones are skipped, missing ones fail). */
  | { readonly kind: 'issues'; readonly issues: readonly number[] }
  /** An IssueSource query: label and/or state (default open), optionally a title substring. */
  | {
      readonly kind: 'query';
      readonly label?: string;
      readonly state?: 'open' | 'closed';
      readonly titleContains?: string;
    };

/** The labels of the issue state machine. `ready` is removed when an issue starts. */
export interface BatchLabels {
  readonly ready: string;
  readonly inProgress: string;
  readonly done: string;
  readonly blocked: string;
}

export const DEFAULT_BATCH_LABELS: BatchLabels = {
  ready: 'ready',
  inProgress: 'in-progress',
  done: 'done',
  blocked: 'blocked',
};

/** History length at which a batch drains and continues as new (Temporal warns at 10,240 events). */
export const DEFAULT_BATCH_HISTORY_THRESHOLD = 5000;
export const MAX_BATCH_CONCURRENCY = 100;

export interface BatchInput {
  /** The agent's name (from its definition): child Workflow IDs are `<agentName>-issue-<n>`. */
  readonly agentName: string;
  readonly agentDir: string;
  readonly repoPath: string;
  readonly issueSource: IssueSourceKind;
  /** Delivery of every child run (default: the default for the issue source). */
  readonly delivery?: DeliveryMode;
  readonly artifactsDir: string;
  readonly selection: BatchSelection;
  /** Children running at once (1..MAX_BATCH_CONCURRENCY). */
  readonly concurrency: number;
  readonly labels?: Partial<BatchLabels>;
  /** Per-run settings passed to every child. */
  readonly budget?: RunBudget;
  readonly maxIterations?: number;
  readonly tuning?: RunInput['tuning'];
  /** From `.agent/config.json`, as start-run passes them: the answer timeout, setup. */
  readonly answerTimeoutMs?: number;
  readonly planApproval?: RunInput['planApproval'];
  readonly setup?: RunInput['setup'];
  /** The repository's commands/model and AGENTS.md/CLAUDE.md, as start-run passes them. */
  readonly overrides?: RunInput['overrides'];
  readonly repoInstructions?: string;
  /** The repository identity (`<slug>-<hash>`): children are `<repoId>/<agent>/issue-<n>` like start-run's runs. */
  readonly repoId?: string;
  /** Continue as new once history passes this many events (default DEFAULT_BATCH_HISTORY_THRESHOLD). */
  readonly historyThreshold?: number;
  /** State carried over by continue-as-new; absent on the first run. */
  readonly carry?: BatchCarry;
}

export const BatchIssueState = {
  Queued: 'queued',
  Starting: 'starting',
  Running: 'running',
  Succeeded: 'succeeded',
  /** The run succeeded but its delivery (boundary hook) is incomplete: needs a human. */
  Partial: 'partial',
  Failed: 'failed',
  Cancelled: 'cancelled',
  Skipped: 'skipped',
} as const;
export type BatchIssueState = (typeof BatchIssueState)[keyof typeof BatchIssueState];

/** One row of the result table. */
export interface BatchIssueResult {
  readonly issue: number;
  readonly title: string;
  readonly workflowId: string;
  readonly outcome: Exclude<BatchIssueState, 'queued' | 'starting' | 'running'>;
  readonly steps: number;
  readonly iterations: number;
  readonly tokens: number;
  readonly costUsd: number;
  readonly prUrl?: string;
  readonly reason: string;
  /** FailureType code when not successful. */
  readonly code?: FailureType;
  /** Labels after the final move (done or blocked); absent when relabelling failed. */
  readonly labels?: readonly string[];
  /** True when the batch found a live run for the issue and waited for it instead of starting one. */
  readonly attached: boolean;
}

export interface BatchIssueProgress {
  readonly issue: number;
  readonly title: string;
  readonly state: BatchIssueState;
  readonly workflowId: string;
  readonly reason?: string;
}

export const BatchPhase = {
  Selecting: 'selecting',
  Running: 'running',
  /** Waiting for running children before continuing as new. */
  Draining: 'draining',
  Cancelling: 'cancelling',
  Completed: 'completed',
} as const;
export type BatchPhase = (typeof BatchPhase)[keyof typeof BatchPhase];

export interface BatchCounts {
  readonly total: number;
  readonly queued: number;
  readonly running: number;
  readonly succeeded: number;
  readonly partial: number;
  readonly failed: number;
  readonly cancelled: number;
  readonly skipped: number;
}

export interface BatchProgress {
  readonly workflowId: string;
  readonly phase: BatchPhase;
  readonly concurrency: number;
  readonly counts: BatchCounts;
  /** The most children this batch ever had in flight at once (across continue-as-new). */
  readonly maxConcurrent: number;
  /** How many times this batch continued as new. */
  readonly generation: number;
  readonly issues: readonly BatchIssueProgress[];
  readonly results: readonly BatchIssueResult[];
}

export interface BatchResult {
  readonly workflowId: string;
  /** completed: every issue succeeded (or was skipped as closed); partial: some did not; cancelled: an operator stopped it. */
  readonly status: 'completed' | 'partial' | 'cancelled';
  readonly counts: BatchCounts;
  readonly maxConcurrent: number;
  readonly generation: number;
  readonly results: readonly BatchIssueResult[];
  readonly totalTokens: number;
  readonly totalCostUsd: number;
}

/** A selected issue, without its body (bodies stay out of the batch's history). */
export interface BatchIssueRef {
  readonly number: number;
  readonly title: string;
  readonly state: IssueSnapshot['state'];
  readonly labels: readonly string[];
}

/** What continue-as-new carries: selection is done once, results accumulate. */
export interface BatchCarry {
  readonly queue: readonly BatchIssueRef[];
  readonly results: readonly BatchIssueResult[];
  readonly maxConcurrent: number;
  readonly generation: number;
  readonly cancelled?: string;
}

export interface ListIssuesInput {
  readonly repoPath: string;
  readonly issueSource: IssueSourceKind;
  readonly selection: BatchSelection;
}

export interface ListIssuesOutput {
  readonly issues: readonly BatchIssueRef[];
  /** Issues of an explicit list that do not exist. */
  readonly missing: readonly { readonly issue: number; readonly reason: string }[];
}

export interface RelabelIssueInput {
  readonly repoPath: string;
  readonly issueSource: IssueSourceKind;
  readonly issue: number;
  readonly add: readonly string[];
  readonly remove: readonly string[];
}

export interface AwaitRunInput {
  readonly workflowId: string;
}

/** What a run that the batch attached to (instead of starting it) ended with. */
export interface AwaitRunOutput {
  readonly status: 'completed' | 'failed' | 'cancelled' | 'terminated' | 'timed-out';
  /** The RunResult when the run completed. */
  readonly result?: RunResult;
  readonly reason?: string;
}

/** The activities the batch workflow calls. */
export interface BatchActivities {
  listIssues(input: ListIssuesInput): Promise<ListIssuesOutput>;
  /** Idempotent: the store applies a label set change, never toggles. Returns the labels after. */
  relabelIssue(input: RelabelIssueInput): Promise<readonly string[]>;
  /** Waits (heartbeating) for a run the batch did not start itself, and returns how it ended. */
  awaitRun(input: AwaitRunInput): Promise<AwaitRunOutput>;
}

export function batchLabels(input: Pick<BatchInput, 'labels' | 'selection'>): BatchLabels {
  const fromSelection = input.selection.kind === 'label' ? { ready: input.selection.label } : {};
  return { ...DEFAULT_BATCH_LABELS, ...fromSelection, ...input.labels };
}
