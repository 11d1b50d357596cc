/**
 * The validated, normalised agent definition: what the loader produces and what the
 * run workflow receives as a snapshot in its history. Vocabulary-neutral: seed and
 * upstream names are both mapped onto these shapes by the loader.
 */
import type { CompletionType, CompositeOperator } from './completion-types.js';
import type { Intent, StepKind } from './intents.js';
import type { JsonObject, JsonValue } from './json.js';
import type { ModelSettings } from './model-options.js';

export interface OutputSchemaRef {
  /** File name relative to the agent's `schemas/` directory. */
  readonly file: string;
  /** Bare name (`definitions`/`$defs`/top-level key) or `#/json/pointer`. */
  readonly schema: string;
  /** A built-in schema used instead of the file (steps the registry gave no schema: ungated, runner). */
  readonly inline?: JsonObject;
}

/** A closure step run as a deterministic subprocess instead of a model call (upstream `runner`). */
export interface StepRunnerSpec {
  readonly command: string;
  /** Arguments; `${context.<key>}` is replaced by the run context (parameters, issue). */
  readonly args: readonly string[];
  readonly timeoutMs: number;
}

/** Upstream step `inputs`: `{ from: "<stepId>.<key>", required, default }`. */
export interface StepInputSpec {
  readonly from?: string;
  readonly required: boolean;
  readonly default?: JsonValue;
}

/** A `section.*` step: a prompt fragment (no gate, no transitions), offered to every step prompt. */
export interface SectionDefinition {
  readonly stepId: string;
  readonly c2: string;
  readonly c3: string;
  readonly edition: string;
  readonly adaptation?: string;
  readonly uvVariables: readonly string[];
  /** The `{uv-...}` name under which other prompts see the fragment (`section_<rest>`). */
  readonly variable: string;
}

export interface StructuredGate {
  readonly allowedIntents: readonly Intent[];
  /** Dot path into the structured output, e.g. `next_action.action`. */
  readonly intentField: string;
  /** Internal pointer into the resolved step schema, e.g. `#/properties/next_action/properties/action`. */
  readonly intentSchemaRef: string;
  /** Dot path to the jump target step id. */
  readonly targetField?: string;
  /** Dot paths copied into StepContext; key = last path segment. */
  readonly handoffFields: readonly string[];
  /** Default true: a missing or disallowed intent fails the run with FAILED_STEP_ROUTING. */
  readonly failFast: boolean;
  readonly fallbackIntent?: Intent;
}

/** `{ target }` (null ends the flow) or a conditional transition keyed by a handoff value. */
export type TransitionRule =
  | { readonly target: string | null }
  | {
      readonly condition: string;
      /** value → step id (null ends the flow); `default` is used when no value matches. */
      readonly targets: Readonly<Record<string, string | null>>;
    };

export interface StepDefinition {
  readonly stepId: string;
  readonly name: string;
  readonly stepKind: StepKind;
  readonly c2: string;
  readonly c3: string;
  readonly edition: string;
  readonly adaptation?: string;
  /** Variables (without `uv-` prefix) that must be present and non-empty at resolution. */
  readonly uvVariables: readonly string[];
  readonly outputSchemaRef: OutputSchemaRef;
  readonly structuredGate: StructuredGate;
  readonly transitions: Readonly<Partial<Record<Intent, TransitionRule>>>;
  /** Verification steps may be made read-only (no editor writes, no mutating bash). */
  readonly readOnly: boolean;
  /** False when the registry declared no structuredGate (the gate was built in; ungated closure). */
  readonly gated?: boolean;
  readonly runner?: StepRunnerSpec;
  readonly inputs?: Readonly<Record<string, StepInputSpec>>;
  /** Per-step model id (upstream `model`: sonnet/opus/haiku or a full id). */
  readonly model?: string;
}

export const FailAction = { Retry: 'retry', Abort: 'abort', Skip: 'skip' } as const;
export type FailAction = (typeof FailAction)[keyof typeof FailAction];

export interface ConditionRef {
  readonly validator: string;
  readonly params: Readonly<Record<string, JsonValue>>;
}

/** A completion (upstream: validation) step: the conditions a closure must pass. */
export interface CompletionStepDefinition {
  readonly stepId: string;
  readonly name: string;
  /** C3L segments used for retry prompts: `<c1>/<c2>/<c3>/f_<edition>_<adaptation>.md`. */
  readonly c2: string;
  readonly c3: string;
  readonly conditions: readonly ConditionRef[];
  readonly onFail: { readonly action: FailAction; readonly maxAttempts: number };
}

export type SuccessWhen = string; // 'empty' | 'exitCode:N' | 'contains:S' | 'matches:RE'

/**
 * How a test validator treats tests that already fail on the base commit: `ignore`
 * (they block only when the issue names them or the branch changed their file) or
 * `require-fixed` (they all block). Regressions always block.
 */
export const BaselineMode = { Ignore: 'ignore', RequireFixed: 'require-fixed' } as const;
export type BaselineMode = (typeof BaselineMode)[keyof typeof BaselineMode];

export type ValidatorDefinition =
  | {
      readonly type: 'command';
      readonly command: string;
      readonly successWhen: SuccessWhen;
      readonly failurePattern?: string;
      /** param name → extractor name (e.g. changedFiles → parseChangedFiles). */
      readonly extractParams: Readonly<Record<string, string>>;
      readonly timeoutMs?: number;
      /** Set: failures are compared with the same command's failures on the base commit. */
      readonly baseline?: BaselineMode;
    }
  | {
      readonly type: 'file';
      readonly paths: readonly string[];
      readonly failurePattern?: string;
    }
  | {
      /** Built in (no command): the run's diff against its base, checked for weakened tests. */
      readonly type: 'test-integrity';
      readonly failurePattern?: string;
    }
  | {
      /** Built in (no command): the branch has a change against its base (the no-op guard, contracts/no-change.ts). */
      readonly type: 'branch-changed';
      readonly failurePattern?: string;
    };

export interface FailurePatternDefinition {
  readonly description: string;
  readonly edition: string;
  readonly adaptation?: string;
  readonly params: readonly string[];
  /** Keywords (substrings or `/regex/`) that pick this pattern for a failure naming none (contracts/semantic-match). */
  readonly semanticMatch?: readonly string[];
}

export interface ParameterSpec {
  readonly type: 'string' | 'number' | 'boolean' | 'array';
  readonly description: string;
  readonly required: boolean;
  readonly default?: JsonValue;
  readonly cli: string;
}

export interface VerdictSpec {
  readonly type: CompletionType;
  /** Type-specific configuration (maxIterations, verdictKeyword, signalType, ...). */
  readonly config: JsonObject;
  /** For `composite`: the operator and child verdicts. */
  readonly operator?: CompositeOperator;
  readonly children?: readonly VerdictSpec[];
}

export const ClosureAction = { Close: 'close', LabelOnly: 'label-only', LabelAndClose: 'label-and-close' } as const;
export type ClosureAction = (typeof ClosureAction)[keyof typeof ClosureAction];

export interface LabelChange {
  readonly add: readonly string[];
  readonly remove: readonly string[];
}

/** agent.json `runner.model`, with defaults applied (model-options.ts). */
export type { ModelSettings } from './model-options.js';

/**
 * A definition snapshot: the definition's files copied at run start into a
 * content-addressed store (`<state dir>/definitions/<digest>/`). `digest` is the sha256 of
 * the copy (paths and contents, as the definition hash); `agentDir` is the directory the
 * definition's own paths (agentDir, promptsDir, schemasDir) are under, so a reader maps
 * them into the copy on whichever worker it runs.
 */
export interface DefinitionSnapshotRef {
  readonly digest: string;
  readonly agentDir: string;
}

export interface AgentDefinition {
  readonly name: string;
  readonly displayName: string;
  readonly version: string;
  readonly description: string;
  /** Absolute path of the agent directory the definition was loaded from. */
  readonly agentDir: string;
  /** Path of the prompts root (`<agentDir>/prompts` or the default `prompts/`). */
  readonly promptsDir: string;
  /** Path of the schemas directory. */
  readonly schemasDir: string;
  /** sha256 over registry, schemas and prompts: which definition a run used. */
  readonly hash: string;
  /**
   * The run's frozen copy of these files (set by the run's loadDefinition activity, so it
   * is in history): every later read of a prompt, schema or retry template goes to it.
   * Absent for definitions loaded outside a run and in histories from before snapshots.
   */
  readonly snapshot?: DefinitionSnapshotRef;
  readonly parameters: Readonly<Record<string, ParameterSpec>>;
  readonly verdict: VerdictSpec;
  readonly maxIterations: number;
  readonly systemPromptPath: string;
  readonly c1: string;
  readonly entryStep: string;
  readonly steps: Readonly<Record<string, StepDefinition>>;
  /** `section.*` prompt fragments (absent in definitions recorded before sections existed). */
  readonly sections?: Readonly<Record<string, SectionDefinition>>;
  /** Closure prompt adaptation from `defaultClosureAction` (label-only / label-and-close), if any. */
  readonly closureAdaptation?: string;
  readonly completionSteps: Readonly<Record<string, CompletionStepDefinition>>;
  readonly validators: Readonly<Record<string, ValidatorDefinition>>;
  readonly failurePatterns: Readonly<Record<string, FailurePatternDefinition>>;
  readonly model: ModelSettings;
  readonly closureAction: ClosureAction;
  /** Labels the boundary hook sets on completion (`label-only`, `label-and-close`). */
  readonly completionLabels: LabelChange;
  /**
   * The `github` tool and the labels it may set (`runner.integrations.github.labels`);
   * absent when the agent turns GitHub integration off, and in definitions recorded before it existed.
   */
  readonly githubTool?: { readonly labels: readonly string[] };
  /** root undefined: worktrees in `<state-dir>/worktrees/<checkout>-<hash>` (worktree-layout.ts). */
  readonly worktree: { readonly root: string | undefined; readonly branchPrefix: string };
  readonly warnings: readonly string[];
}
