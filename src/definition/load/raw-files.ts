/**
 * The shapes of agent.json and steps_registry.json as written on disk, after the
 * JSON Schemas in ./schemas/ have accepted them. Both vocabularies appear here
 * (docs/registry-reference.md; seed `completionSteps`/`onFail`, upstream
 * `validationSteps`/`onFailure`); the normalisers
 * map them onto the vocabulary-neutral AgentDefinition. Keys with no runtime meaning
 * for us (permissionMode, allowedTools, sandbox, logging, ...) are accepted and not typed.
 */
import type { JsonObject, JsonValue } from '../../contracts/json.js';
import type { ContextManagementInput, Effort, Thinking } from '../../contracts/model-options.js';

export interface RawParameter {
  readonly type: 'string' | 'number' | 'boolean' | 'array';
  readonly description?: string;
  readonly required?: boolean;
  readonly default?: JsonValue;
  readonly cli: string;
}

export interface RawVerdict {
  readonly type: string;
  readonly config?: JsonObject;
}

export interface RawValidationCommands {
  readonly typeCheck?: string;
  readonly test?: string;
  readonly lint?: string;
  readonly format?: string;
}

export interface RawAgentFile {
  readonly name: string;
  readonly displayName?: string;
  readonly version?: string;
  readonly description?: string;
  readonly parameters?: Readonly<Record<string, RawParameter>>;
  readonly runner: {
    readonly flow?: {
      readonly systemPromptPath?: string;
      readonly prompts?: { readonly registry?: string };
      readonly defaultModel?: string;
    };
    readonly boundaries?: { readonly allowedTools?: readonly string[]; readonly permissionMode?: string };
    readonly verdict?: RawVerdict;
    readonly integrations?: {
      readonly github?: {
        readonly enabled?: boolean;
        readonly defaultClosureAction?: string;
        /** Upstream: `completion.{add,remove}` are applied on completion; other keys are label names. */
        readonly labels?: {
          readonly completion?: { readonly add?: readonly string[]; readonly remove?: readonly string[] };
        };
      };
    };
    readonly execution?: {
      readonly worktree?: { readonly enabled?: boolean; readonly root?: string; readonly branchPrefix?: string };
    };
    readonly model?: {
      readonly model?: string;
      readonly maxTokens?: number;
      readonly maxTurnsPerStep?: number;
      readonly effort?: Effort;
      readonly thinking?: Thinking;
      readonly contextManagement?: ContextManagementInput;
    };
    readonly validation?: { readonly commands?: RawValidationCommands };
  };
}

export interface RawSchemaRef {
  readonly file: string;
  readonly schema: string;
}

export interface RawGate {
  readonly allowedIntents: readonly string[];
  readonly intentField: string;
  readonly intentSchemaRef: string;
  readonly targetField?: string;
  readonly handoffFields?: readonly string[];
  readonly failFast?: boolean;
  readonly fallbackIntent?: string;
}

export interface RawTransition {
  readonly target?: string | null;
  readonly condition?: string;
  readonly targets?: Readonly<Record<string, string | null>>;
}

export interface RawStep {
  readonly stepId: string;
  readonly name?: string;
  readonly stepKind?: string;
  readonly c2: string;
  readonly c3: string;
  readonly edition?: string;
  readonly adaptation?: string;
  readonly uvVariables?: readonly string[];
  /** Optional for `section.*` steps, runner steps and ungated closure steps (rules check the rest). */
  readonly outputSchemaRef?: RawSchemaRef;
  readonly structuredGate?: RawGate;
  readonly transitions?: Readonly<Record<string, RawTransition>>;
  readonly readOnly?: boolean;
  readonly runner?: { readonly command: string; readonly args?: readonly string[]; readonly timeout?: number };
  readonly inputs?: Readonly<
    Record<string, { readonly from?: string; readonly required?: boolean; readonly default?: JsonValue }>
  >;
  readonly permissionMode?: string;
  readonly model?: string;
}

export interface RawCondition {
  readonly validator: string;
  readonly params?: JsonObject;
}

export interface RawCompletionStep {
  readonly stepId?: string;
  readonly name?: string;
  readonly c2?: string;
  readonly c3?: string;
  /** Seed form: the closure prompt coordinates. */
  readonly prompt?: { readonly c1?: string; readonly c2?: string; readonly c3?: string };
  readonly completionConditions?: readonly RawCondition[];
  readonly validationConditions?: readonly RawCondition[];
  readonly onFail?: { readonly retry?: boolean; readonly maxAttempts?: number };
  readonly onFailure?: { readonly action?: string; readonly maxAttempts?: number };
}

export interface RawValidator {
  readonly type: 'command' | 'file' | 'custom' | 'semantic';
  readonly command?: string;
  readonly successWhen?: string;
  readonly failurePattern?: string;
  readonly extractParams?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly baseline?: 'ignore' | 'require-fixed';
  readonly path?: string;
  readonly paths?: readonly string[];
}

export interface RawFailurePattern {
  readonly description?: string;
  readonly edition?: string;
  readonly adaptation?: string;
  readonly params?: readonly string[];
  readonly semanticMatch?: readonly string[];
}

export interface RawRegistryFile {
  readonly agentId?: string;
  readonly version?: string;
  readonly c1?: string;
  readonly entryStep?: string;
  readonly entryStepMapping?: Readonly<Record<string, string>>;
  readonly steps: Readonly<Record<string, RawStep>>;
  readonly failurePatterns?: Readonly<Record<string, RawFailurePattern>>;
  readonly validators?: Readonly<Record<string, RawValidator>>;
  readonly completionSteps?: Readonly<Record<string, RawCompletionStep>>;
  readonly validationSteps?: Readonly<Record<string, RawCompletionStep>>;
}
