/**
 * Running a label pipeline (contracts/pipeline.ts) over one issue: the parent workflow's
 * input, the progress its query returns, its result, and the activities it calls.
 * Shared by the workflow, its activities and the CLI.
 */
import type { DeliveryMode } from './delivery.js';
import type { ParameterValue } from './parameter-values.js';
import type { PipelineDefinition, PipelineStatus, PipelineTransition } from './pipeline.js';
import type { IssueSourceKind, RunInput } from './run.js';
import type { RunBudget } from './usage.js';

export interface PipelineInput {
  readonly issue: number;
  /** The loaded, validated pipeline (its snapshot lands in history: editing the file mid-run cannot break replay). */
  readonly definition: PipelineDefinition;
  readonly repoPath: string;
  readonly issueSource: IssueSourceKind;
  /** The repository identity: child runs are `<repoId>/<agent>/issue-<n>` like start-run's. */
  readonly repoId?: string;
  readonly artifactsDir: string;
  /** Delivery of every child run (default: the default for the issue source). */
  readonly delivery?: DeliveryMode;
  /** Per-agent parameters (by pipeline agent id) given by the caller; defaults and `issue` are added. */
  readonly parameters?: Readonly<Record<string, Readonly<Record<string, ParameterValue>>>>;
  readonly budget?: RunBudget;
  readonly maxIterations?: number;
  readonly tuning?: RunInput['tuning'];
  readonly overrides?: RunInput['overrides'];
  readonly repoInstructions?: string;
  /** Overrides `rules.cycleDelayMs` (tests). */
  readonly cycleDelayMs?: number;
}

/** The PipelineStatus values a finished pipeline can have (never `running`). */
export type PipelineEndStatus = Exclude<PipelineStatus, 'running'>;

export interface PipelineProgress {
  readonly workflowId: string;
  readonly issue: number;
  readonly pipeline: string;
  readonly status: PipelineStatus;
  readonly paused: boolean;
  /** The phase the labels resolved to at the start of the current cycle (or the final one). */
  readonly phase?: string;
  /** Dispatches so far (a cycle is counted when its agent is dispatched). */
  readonly cycle: number;
  readonly maxCycles: number;
  readonly agent?: string;
  /** Workflow ID of the child run in flight. */
  readonly childWorkflowId?: string;
  readonly lastOutcome?: string;
  readonly history: readonly PipelineTransition[];
  readonly issueClosed: boolean;
  readonly reason?: string;
}

export interface PipelineResult {
  readonly issue: number;
  readonly workflowId: string;
  readonly finalPhase?: string;
  readonly cycleCount: number;
  readonly history: readonly PipelineTransition[];
  readonly status: PipelineEndStatus;
  readonly issueClosed: boolean;
  /** Why it stopped, in one sentence. */
  readonly reason: string;
}

/** What the workflow needs of each pipeline agent at dispatch, resolved once by an activity. */
export interface ResolvedPipelineAgent {
  /** The agent's own name (agent.json): child Workflow IDs use it, like start-run. */
  readonly name: string;
  readonly agentDir: string;
  /** Declared parameters with defaults and the caller's values applied (`issue` filled in). */
  readonly parameters: Readonly<Record<string, ParameterValue>>;
  /** The agent's `worktree.branchPrefix`: its issue branch is `<prefix>/issue-<n>` (absent in old histories). */
  readonly branchPrefix?: string;
}

export interface ResolvePipelineAgentsInput {
  readonly issue: number;
  readonly agents: readonly { readonly id: string; readonly agentDir: string }[];
  readonly parameters?: PipelineInput['parameters'];
  readonly overrides?: RunInput['overrides'];
}

export interface IssueRefInput {
  readonly repoPath: string;
  readonly issueSource: IssueSourceKind;
  readonly issue: number;
}

export interface IssueLabelsOutput {
  readonly labels: readonly string[];
  readonly state: 'open' | 'closed';
}

export interface PipelineCommentInput extends IssueRefInput {
  readonly text: string;
  readonly idempotencyKey: string;
}

export interface PipelineRelabelInput extends IssueRefInput {
  readonly add: readonly string[];
  readonly remove: readonly string[];
}

/**
 * Before each dispatch the pipeline hands the issue's branch (and its worktree) to the
 * phase's agent: 1 issue = 1 branch = 1 worktree = 1 agent, and the change of owner is a
 * step in the pipeline's history rather than a silent reuse.
 */
export interface HandOverBranchInput {
  readonly repoPath: string;
  readonly issue: number;
  /** The receiving agent's branch prefix (`<prefix>/issue-<n>`). */
  readonly branchPrefix: string;
  /** The receiving agent (its definition's name). */
  readonly to: string;
  /** With the issue: names the current owner's run, which must not be live. */
  readonly repoId?: string;
}

export const HandOverOutcome = {
  /** The owner changed from `from` (or nobody) to `to`. */
  HandedOver: 'handed-over',
  /** `to` already owned it (its own earlier cycle, or a retried activity). */
  AlreadyOwned: 'already-owned',
  /** No branch yet: the agent's run creates it from the base. */
  NoBranch: 'no-branch',
} as const;
export type HandOverOutcome = (typeof HandOverOutcome)[keyof typeof HandOverOutcome];

export interface HandOverBranchOutput {
  readonly branch: string;
  readonly outcome: HandOverOutcome;
  /** The owner before the hand-over, when there was one. */
  readonly from?: string;
  readonly to: string;
}

/** The pipeline workflow's activities: all idempotent, so a retry or a resumed cycle never acts twice. */
export interface PipelineActivities {
  resolvePipelineAgents(input: ResolvePipelineAgentsInput): Promise<Readonly<Record<string, ResolvedPipelineAgent>>>;
  readIssueLabels(input: IssueRefInput): Promise<IssueLabelsOutput>;
  /** A set change (never a toggle); returns the labels after. */
  applyPipelineLabels(input: PipelineRelabelInput): Promise<readonly string[]>;
  /** Returns 'added' or 'already-present' (same idempotency key). */
  postPipelineComment(input: PipelineCommentInput): Promise<'added' | 'already-present'>;
  closePipelineIssue(input: IssueRefInput): Promise<'closed' | 'already-closed'>;
  /** Makes `to` the owner of the issue's branch; refuses while another agent's run of the issue is live. */
  handOverBranch(input: HandOverBranchInput): Promise<HandOverBranchOutput>;
}

/** A run's Workflow ID as start-run, the batch and the pipeline build it. */
export function issueRunWorkflowId(repoId: string | undefined, agentName: string, issue: number): string {
  return repoId === undefined ? `${agentName}-issue-${issue}` : `${repoId}/${agentName}/issue-${issue}`;
}

/** `<repoId>/pipeline-<id>/issue-<n>`: one live pipeline per repository, pipeline and issue (the lock). */
export function pipelineWorkflowId(repoId: string, pipelineId: string, issue: number): string {
  return `${repoId}/pipeline-${pipelineId}/issue-${issue}`;
}
