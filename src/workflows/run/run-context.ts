/**
 * RunContext: what every iteration of the run reads and nothing changes, fixed once
 * the run has loaded its definition and prepared its worktree (run-agent.ts builds
 * it). The run's changing state is RunState, owned by RunSession (run/state/).
 */
import type { PrepareWorkspaceOutput, ResolvePromptInput } from '../../contracts/activities.js';
import type { AgentDefinition } from '../../contracts/definition.js';
import type { RunInput } from '../../contracts/run.js';

/** Immutable once the run has loaded its definition and prepared its worktree. */
export interface RunContext {
  readonly input: RunInput;
  readonly workflowId: string;
  readonly definition: AgentDefinition;
  readonly workspace: PrepareWorkspaceOutput;
  /** How every step resolves the system prompt (resolved once at start to fail fast). */
  readonly system: ResolvePromptInput;
  readonly issueContext: string;
  readonly maxIterations: number;
}
