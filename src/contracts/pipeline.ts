/**
 * A label pipeline: the upstream `.agent/workflow.json` (several agents over one issue,
 * driven by a label state machine) as loaded, validated and normalised by the
 * definition layer. The pipeline workflow, its activities and the CLI share these
 * shapes; defaults are already applied, so nothing downstream guesses.
 */

export const PhaseType = { Actionable: 'actionable', Terminal: 'terminal', Blocking: 'blocking' } as const;
export type PhaseType = (typeof PhaseType)[keyof typeof PhaseType];

export type PipelinePhase =
  | {
      readonly id: string;
      readonly type: typeof PhaseType.Actionable;
      readonly priority: number;
      readonly agent: string;
    }
  | { readonly id: string; readonly type: typeof PhaseType.Terminal | typeof PhaseType.Blocking };

export const AgentRole = { Transformer: 'transformer', Validator: 'validator' } as const;
export type AgentRole = (typeof AgentRole)[keyof typeof AgentRole];

interface PipelineAgentCommon {
  readonly id: string;
  /** Absolute path of the agent directory (upstream: `.agent/<directory ?? id>`). */
  readonly agentDir: string;
  readonly fallbackPhase?: string;
  readonly closeOnComplete: boolean;
  /** Only with closeOnComplete: close only when the outcome equals this. */
  readonly closeCondition?: string;
}

export type PipelineAgent =
  | (PipelineAgentCommon & {
      readonly role: typeof AgentRole.Transformer;
      readonly outputPhase: string;
      /** outcome (e.g. `failed`, or the agent's verdict) → phase. */
      readonly fallbackPhases: Readonly<Record<string, string>>;
    })
  | (PipelineAgentCommon & {
      readonly role: typeof AgentRole.Validator;
      /** verdict → phase. */
      readonly outputPhases: Readonly<Record<string, string>>;
    });

export interface LabelSpec {
  /** Six hex digits, no '#'. */
  readonly color: string;
  readonly description: string;
}

export interface PipelineRules {
  /** Agent dispatches per pipeline run (≥ 1; default 5). */
  readonly maxCycles: number;
  /** Pause between cycles (default 10000). */
  readonly cycleDelayMs: number;
  /** Stop when the last N transitions all went to the same phase (0 = off, the default). */
  readonly maxConsecutivePhases: number;
}

export interface Prioritizer {
  /** A declared agent's id, or (as upstream's own workflow.json has it) an agent directory's name. */
  readonly agent: string;
  /** Absolute path of the prioritizer agent's directory (the declared agent's, else `<dir>/<agent>`). */
  readonly agentDir: string;
  /** Priority labels, most urgent first. */
  readonly labels: readonly string[];
  readonly defaultLabel?: string;
}

export interface PipelineDefinition {
  /** Absolute path of the workflow.json it was loaded from. */
  readonly path: string;
  /** `labelPrefix`, or "default". */
  readonly id: string;
  readonly version: string;
  /** Real labels are `<labelPrefix>:<bare>` when set. */
  readonly labelPrefix?: string;
  /** In file order (insertion order matters nowhere else, but is kept). */
  readonly phases: readonly PipelinePhase[];
  /** Bare label → phase id, in file order (the first label mapping to a phase is the one added). */
  readonly labelMapping: readonly (readonly [label: string, phase: string])[];
  /** Bare label → spec, when the file declares labels. */
  readonly labels: Readonly<Record<string, LabelSpec>>;
  readonly agents: readonly PipelineAgent[];
  readonly rules: PipelineRules;
  /** Template key → text with `{var}` placeholders. */
  readonly commentTemplates: Readonly<Record<string, string>>;
  readonly prioritizer?: Prioritizer;
  /** Content hash of the file and the agent definitions it names. */
  readonly hash: string;
}

/** One cycle's record, as the result and the query report it. */
export interface PipelineTransition {
  readonly cycle: number;
  readonly from: string;
  readonly to: string;
  readonly agent: string;
  readonly outcome: string;
  /** Workflow ID of the child run. */
  readonly runId: string;
}

export const PipelineStatus = {
  Running: 'running',
  Completed: 'completed',
  Blocked: 'blocked',
  CycleExceeded: 'cycle_exceeded',
  PhaseRepetitionExceeded: 'phase_repetition_exceeded',
  Cancelled: 'cancelled',
  Failed: 'failed',
} as const;
export type PipelineStatus = (typeof PipelineStatus)[keyof typeof PipelineStatus];
