/**
 * Which tools a step gets, by step kind: enforced here in code, never by prompt.
 * Every kind works in its worktree with bash and the editor; `readOnly` (a per-step
 * registry flag, typical for verification) removes editor writes and obviously
 * mutating shell commands. Boundary actions are refused for every kind (bash-policy).
 */
import type { StepKind } from '../../contracts/intents.js';
import { ToolName } from './tool-types.js';

export interface ToolPolicy {
  readonly tools: readonly ToolName[];
  readonly editorWrites: boolean;
  readonly bashMutations: boolean;
}

export const STEP_KIND_TOOLS: Readonly<Record<StepKind, readonly ToolName[]>> = {
  work: [ToolName.Bash, ToolName.Editor],
  verification: [ToolName.Bash, ToolName.Editor],
  closure: [ToolName.Bash, ToolName.Editor],
};

export function toolPolicyFor(stepKind: StepKind, readOnly: boolean): ToolPolicy {
  return { tools: STEP_KIND_TOOLS[stepKind], editorWrites: !readOnly, bashMutations: !readOnly };
}
