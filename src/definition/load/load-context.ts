/**
 * What the cross-reference rules see: the schema-checked raw files, the normalised
 * (but not yet verified) parts of the definition, and where each part came from so a
 * rule can point at the exact file and JSON pointer.
 */
import type {
  CompletionStepDefinition,
  FailurePatternDefinition,
  StepDefinition,
  ValidatorDefinition,
} from '../../contracts/definition.js';
import type { StepKind } from '../../contracts/intents.js';
import type { AgentLayout } from './agent-layout.js';
import type { AgentSettings } from '../normalise/normalise-agent.js';
import type { RawAgentFile, RawRegistryFile, RawStep } from './raw-files.js';
import type { SchemaFileCache } from '../schema/schema-file-cache.js';
import type { DraftSection } from '../normalise/normalise-steps.js';

/** A step before verification: its kind may be unknown (which is itself a problem). */
export interface DraftStep {
  readonly key: string;
  /** `/steps/<key>` in the registry file. */
  readonly pointer: string;
  readonly raw: RawStep;
  readonly stepKind: StepKind | undefined;
  readonly definition: Omit<StepDefinition, 'stepKind'>;
}

export interface DraftCompletionStep {
  readonly key: string;
  /** `/completionSteps/<key>` or `/validationSteps/<key>`. */
  readonly pointer: string;
  /** Pointer of the conditions array (either vocabulary). */
  readonly conditionsPointer: string;
  readonly definition: CompletionStepDefinition;
}

export interface EntryChoice {
  readonly stepId: string;
  /** Where the entry was declared (`/entryStep` or `/entryStepMapping/<type>`). */
  readonly pointer: string;
}

/** Built-in validators whose command comes from `runner.validation.commands`. */
export interface KnownValidators {
  readonly defined: Readonly<Record<string, ValidatorDefinition>>;
  /** Built-ins whose command is not configured: id → the agent.json pointer that would configure it. */
  readonly unconfigured: Readonly<Record<string, string>>;
  /** Declared but with no runtime effect (semantic, custom without command): conditions on them are dropped. */
  readonly inert: ReadonlySet<string>;
  /** Pointer of each registry-declared validator (for problems about it). */
  readonly declaredAt: Readonly<Record<string, string>>;
}

export interface LoadContext {
  readonly layout: AgentLayout;
  /** config.json / config.local.json applied over agent.json (absolute paths). */
  readonly overlayFiles: readonly string[];
  /** agentDir-relative file names, as they appear in problems. */
  readonly agentFile: string;
  readonly registryFile: string;
  readonly agent: RawAgentFile;
  readonly registry: RawRegistryFile;
  readonly schemaFiles: SchemaFileCache;
  /** Every file under the prompts root, relative to it, `/`-separated. */
  readonly promptFiles: readonly string[];
  readonly settings: AgentSettings;
  readonly c1: string;
  readonly steps: readonly DraftStep[];
  /** `section.*` prompt fragments (not flow steps; not in `stepIds`). */
  readonly sections: readonly DraftSection[];
  readonly stepIds: ReadonlySet<string>;
  readonly entry: EntryChoice | undefined;
  readonly validators: KnownValidators;
  readonly failurePatterns: Readonly<Record<string, FailurePatternDefinition>>;
  readonly completionSteps: readonly DraftCompletionStep[];
}
