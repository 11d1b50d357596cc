/**
 * What a run carries into its next run when it continues as new (issue 29): a run's
 * history would otherwise grow with every step, and with it the replay a resumed worker
 * does and the server's per-run limits. The next run starts with these instead of
 * loading, preparing and setting up again: it keeps the Workflow ID, the loop state and
 * the facts the run had gathered, so queries, signals and the result read as one run.
 */
import type { PrepareWorkspaceOutput, ResolvePromptInput } from './activities.js';
import type { AgentDefinition } from './definition.js';

export interface CarriedRun {
  /** The loop state (workflows/run/state RunState), as the run left it after its last iteration. */
  readonly state: Readonly<Record<string, unknown>>;
  /** The validated definition snapshot the first run loaded. */
  readonly definition: AgentDefinition;
  readonly workspace: PrepareWorkspaceOutput;
  readonly system: ResolvePromptInput;
  readonly issueContext: string;
  readonly maxIterations: number;
  readonly warnings: readonly string[];
  readonly environment: readonly string[];
  /** Runs of this Workflow ID before this one (1 in the first continued run). */
  readonly continued: number;
}
