/**
 * The activity interface of the run workflow: every I/O the workflow asks for.
 * Implemented by `createActivities(deps)` in src/activities/; the workflow only ever
 * sees these types (through proxyActivities).
 */
import type { DeliveryMode } from './delivery.js';
import type { AnsweredQuestion, AskedQuestion } from './human-loop.js';
import type {
  AgentDefinition,
  ClosureAction,
  DefinitionSnapshotRef,
  LabelChange,
  ModelSettings,
  SectionDefinition,
} from './definition.js';
import type { DefinitionOverrides } from './repo-config.js';
import type { StepKind, ToolStepKind } from './intents.js';
import type {
  KeepEnvironmentSetupInput,
  WriteEnvironmentSetupInput,
  WriteEnvironmentSetupOutput,
} from './agent-setup.js';
import type { JsonObject } from './json.js';
import type { BoundaryReport, IssueSourceKind } from './run.js';
import type { RunStepRunnerInput, RunStepRunnerOutput } from './runner-context.js';
import type { RunBudget, Usage } from './usage.js';
import type { WorktreeCheckpointRequest } from './worktree-checkpoint.js';
import type { IssueSnapshot, PrepareWorkspaceInput, PrepareWorkspaceOutput } from './workspace.js';
import type { BuildRetryPromptInput, ConditionResult, RunValidatorsInput, ValidationReport } from './validation.js';
import type { PreflightInput, PreflightReport } from './preflight.js';
import type { ReportNoChangeInput } from './no-change.js';
import type { EnvironmentReport, PrepareEnvironmentInput } from './environment.js';
import type { EnvironmentAndPreflightInput, EnvironmentAndPreflightOutput } from './environment-and-preflight.js';

// Re-exported: callers name every activity's input and output from this one module.
export type { RunStepRunnerInput, RunStepRunnerOutput };
export type { IssueSnapshot, PrepareWorkspaceInput, PrepareWorkspaceOutput };
export type { BuildRetryPromptInput, ConditionResult, RunValidatorsInput, ValidationReport };

export interface LoadDefinitionInput {
  readonly agentDir: string;
  /** The repository's commands and model, applied over agent.json (see contracts/repo-config.ts). */
  readonly overrides?: DefinitionOverrides;
}

export const PromptKind = { Step: 'step', System: 'system' } as const;
export type PromptKind = (typeof PromptKind)[keyof typeof PromptKind];

export interface ResolvePromptInput {
  readonly agentDir: string;
  readonly promptsDir: string;
  readonly kind: PromptKind;
  /** For `step`: the step whose C3L prompt to resolve. */
  readonly c1: string;
  readonly stepId?: string;
  readonly c2?: string;
  readonly c3?: string;
  readonly edition?: string;
  readonly adaptation?: string;
  /** For `system`: path relative to the agent directory. */
  readonly systemPromptPath?: string;
  /** Declared variables that must be present and non-empty (without `uv-`). */
  readonly required: readonly string[];
  /** Variables available for `{uv-name}` substitution (name without `uv-`). */
  readonly variables: Readonly<Record<string, string>>;
  /**
   * `section.*` fragments: each is resolved with the same variables and offered as
   * `{uv-<section variable>}`; a fragment whose own variables are missing is "".
   */
  readonly sections?: readonly SectionDefinition[];
  /** The run's definition snapshot: the prompt is read from it, never from the agent directory. */
  readonly snapshot?: DefinitionSnapshotRef;
}

export interface ResolvedPrompt {
  readonly text: string;
  /** Path of the file the text came from, relative to the prompts root. */
  readonly source: string;
}

export interface ResolveSchemaInput {
  readonly schemasDir: string;
  readonly stepId: string;
  readonly file: string;
  readonly schema: string;
  /** A built-in schema used instead of the file (steps whose registry entry names none). */
  readonly inline?: JsonObject;
  /** The run's definition snapshot: the schema is read from it, never from the agent directory. */
  readonly snapshot?: DefinitionSnapshotRef;
}

export interface ResolvedSchema {
  /** The full resolved schema, enforced locally with ajv. */
  readonly full: JsonObject;
  /** The subset the Messages API's structured outputs accept. */
  readonly api: JsonObject;
}

/** What the step's conversation itself needs: prompts and schemas resolved. */
export interface QueryStepRequest extends Omit<
  QueryStepInput,
  'system' | 'prompt' | 'stepPrompt' | 'stepSchema' | 'guidance' | 'retryAddendum' | 'answer' | 'stepKind'
> {
  /** An agent's step kind, or the harness's own (`environment`: the agent-written setup). */
  readonly stepKind: ToolStepKind;
  readonly systemPrompt: string;
  readonly prompt: string;
  readonly schema: ResolvedSchema;
}

/** The run facts the todo and github tools act on (no credential: the activity holds it). */
export interface StepToolSettings {
  readonly issueSource: IssueSourceKind;
  readonly repoPath: string;
  /** Absent: the agent has no GitHub integration (no github tool). */
  readonly github?: { readonly labels: readonly string[] };
}

export interface QueryStepInput {
  readonly workflowId: string;
  readonly issue: number;
  readonly stepId: string;
  readonly stepKind: StepKind;
  readonly iteration: number;
  readonly worktreePath: string;
  readonly artifactsDir: string;
  /** How to resolve the system prompt (identical for every step: a cached prefix). */
  readonly system: ResolvePromptInput;
  /** The untrusted issue text, quoted as data; part of the cached prefix. */
  readonly issueContext: string;
  /**
   * The step prompt as text (a retry prompt, or histories from before 'one-activity-step');
   * otherwise `stepPrompt` says how the activity resolves it.
   */
  readonly prompt?: string;
  /** The step prompt to resolve in the activity (one activity per step: 'one-activity-step'). */
  readonly stepPrompt?: ResolvePromptInput;
  readonly guidance?: string; // operator guidance appended to a resolved `stepPrompt` (withOperatorGuidance)
  /** A verdict's retry prompt added after a resolved `stepPrompt`, before guidance (withRetryAddendum). */
  readonly retryAddendum?: string;
  /** A person's answer to this step's question, quoted after the prompt (prompts/harness/answer.md). */
  readonly answer?: AnsweredQuestion;
  /** The schema to resolve in the activity; a failure is a schema failure (FailureType.SchemaResolution). */
  readonly stepSchema?: ResolveSchemaInput;
  readonly model: ModelSettings;
  readonly readOnly: boolean;
  /** What the step's run-level tools (todo, github) need; absent in steps scheduled before they existed. */
  readonly tools?: StepToolSettings;
  /** What is left of the run budget when this step starts. */
  readonly budget: RunBudget;
  /** Worktree checkpoint of this step; absent in activities scheduled before checkpoints existed. */
  readonly checkpoint?: WorktreeCheckpointRequest;
}

export interface ArtifactRef {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

export interface QueryStepOutput {
  readonly output: JsonObject;
  readonly usage: Usage;
  readonly costUsd: number;
  readonly turns: number;
  readonly stopReason: string;
  readonly toolsUsed: readonly string[];
  /** Last assistant text, truncated: feeds `previous_summary`. */
  readonly summary: string;
  readonly transcript: ArtifactRef;
  /** Git files (config, hooks, worktree pointers) the agent changed and the harness restored; a warning. */
  readonly gitRestored?: readonly string[];
  /** The step ended at the model's `ask` (contracts/human-loop.ts): `output` is empty, the run waits. */
  readonly question?: AskedQuestion;
  /** The step's worktree checkpoint (a commit on `checkpoint.ref`); absent when none was recorded. */
  readonly worktreeCheckpoint?: string;
}

export interface BoundaryHookInput {
  readonly workflowId: string;
  readonly mode: IssueSourceKind;
  /** Absent in activities scheduled before delivery was a choice: the default for `mode`. */
  readonly delivery?: DeliveryMode;
  readonly repoPath: string;
  readonly worktreePath: string;
  readonly branch: string;
  readonly baseBranch: string;
  readonly issue: number;
  readonly closureAction: ClosureAction;
  /** Labels to add/remove for `label-only` / `label-and-close` (definition + closure output). */
  readonly labels: LabelChange;
  readonly summary: string;
  readonly evidence: readonly ConditionResult[];
  /** The agent-written setup's `.agent/config.json` snippet, when the run used one: offered in the PR body. */
  readonly environmentSetup?: string;
  /**
   * What the repository should add to `.gitignore` (EnvironmentReport.repositoryAdvice): put
   * in by the activity from the worktree's environment report, never sent by the workflow.
   */
  readonly setupAdvice?: readonly string[];
}

export interface CheckExternalStateInput {
  readonly repoPath: string;
  readonly issue: number;
  readonly issueSource: IssueSourceKind;
}

export interface CustomVerdictInput {
  readonly agentDir: string;
  readonly handlerPath: string;
  /** The run's definition snapshot: the handler module is loaded from it, never from the agent directory. */
  readonly snapshot?: DefinitionSnapshotRef;
  readonly iteration: number;
  readonly output: JsonObject;
  readonly config: JsonObject;
}

/** The activities the run workflow calls. */
export interface RunActivities {
  loadDefinition(input: LoadDefinitionInput): Promise<AgentDefinition>;
  prepareWorkspace(input: PrepareWorkspaceInput): Promise<PrepareWorkspaceOutput>;
  resolvePrompt(input: ResolvePromptInput): Promise<ResolvedPrompt>;
  queryStep(input: QueryStepInput): Promise<QueryStepOutput>;
  runValidators(input: RunValidatorsInput): Promise<ValidationReport>;
  /** Installs what the repository's commands need into the run's worktree (contracts/environment.ts). */
  prepareEnvironment(input: PrepareEnvironmentInput): Promise<EnvironmentReport>;
  /** Each command validator once on the prepared base, before the first model call (contracts/preflight.ts). */
  runPreflight(input: PreflightInput): Promise<PreflightReport>;
  /** The two above as one call, on the run's host (contracts/environment-and-preflight.ts). */
  prepareEnvironmentAndPreflight(input: EnvironmentAndPreflightInput): Promise<EnvironmentAndPreflightOutput>;
  /** The harness's environment.setup step: setup and test commands proposed where detection ends (contracts/agent-setup.ts). */
  writeEnvironmentSetup(input: WriteEnvironmentSetupInput): Promise<WriteEnvironmentSetupOutput>;
  /** Caches an accepted proposal by repository and lockfiles. */
  keepEnvironmentSetup(input: KeepEnvironmentSetupInput): Promise<void>;
  buildRetryPrompt(input: BuildRetryPromptInput): Promise<ResolvedPrompt>;
  runBoundaryHook(input: BoundaryHookInput): Promise<BoundaryReport>;
  /** A run that changed nothing: the reason comment and the needs-human label, nothing else (contracts/no-change.ts). */
  reportNoChange(input: ReportNoChangeInput): Promise<BoundaryReport>;
  checkExternalState(input: CheckExternalStateInput): Promise<IssueSnapshot>;
  evaluateCustomVerdict(input: CustomVerdictInput): Promise<{ readonly done: boolean; readonly reason: string }>;
  runStepRunner(input: RunStepRunnerInput): Promise<RunStepRunnerOutput>;
}
