/**
 * Which tools a step gets and what they may do, by step kind (docs/concepts.md#step-kinds), enforced
 * here in code, never by prompt. The kinds' defaults live in contracts/step-kind-tools
 * and are resolved into the step's `readOnly` at load; this file turns a step (its kind
 * and that `readOnly`) and what the run can serve (a GitHub-integrated agent gets the
 * `github` tool) into the tools offered. docs/registry-reference.md §2.2 is its table
 * (tool-policy.test checks each row).
 *
 * How each tool honours a read-only step:
 * - the editor refuses create / str_replace / insert (view stays);
 * - bash runs with the worktree and its git dir mounted read-only in the sandbox's
 *   mount namespace (sandbox-launch): every write fails with EROFS whatever the command
 *   is. Only where the machine has no mount namespace does bash-policy's pattern check
 *   stand in, which is a guard-rail, not a boundary (docs/security.md);
 * - todo keeps the model's plan in the run's artifacts, never in the worktree: allowed;
 * - github offers only the kind's actions (reads for work and verification);
 * - ask changes nothing (it ends the step with a question): offered in every step of a run.
 *
 * There is no "boundary command" filter on bash for any kind: the agent's shell holds no
 * credential and, where namespaces allow, has no network, so `git push` or `gh issue
 * close` cannot reach anything (bash-policy, docs/security.md). Boundary effects happen
 * only in the boundary hook.
 */
import { HarnessStepKind, type ToolStepKind } from '../../contracts/intents.js';
import { STEP_KIND_ACCESS, type GitHubAction } from '../../contracts/step-kind-tools.js';
import { ToolName } from './tool-types.js';

export interface ToolPolicy {
  readonly tools: readonly ToolName[];
  readonly editorWrites: boolean;
  /** False: bash sees the worktree read-only. */
  readonly bashWrites: boolean;
  /** Actions the github tool accepts in this step (empty when it is not offered). */
  readonly github: readonly GitHubAction[];
}

export interface ToolAvailability {
  /** The agent integrates GitHub (local issues count: the tool then works on the local store). */
  readonly github: boolean;
  /** The step belongs to a run that can wait for an answer (the `ask` tool). */
  readonly ask?: boolean;
}

export function toolPolicyFor(
  stepKind: ToolStepKind,
  readOnly: boolean,
  available: ToolAvailability = { github: false },
): ToolPolicy {
  // The harness's environment step reads the repository and nothing else: no plan, no
  // GitHub, no question to a person, and never a write, whatever it was asked.
  if (stepKind === HarnessStepKind.Environment)
    return { tools: [ToolName.Bash, ToolName.Editor], editorWrites: false, bashWrites: false, github: [] };
  const access = STEP_KIND_ACCESS[stepKind];
  const github = available.github ? access.github : [];
  return {
    tools: [
      ToolName.Bash,
      ToolName.Editor,
      ToolName.Todo,
      ...(github.length > 0 ? [ToolName.GitHub] : []),
      ...(available.ask === true ? [ToolName.Ask] : []),
    ],
    editorWrites: !readOnly,
    bashWrites: !readOnly,
    github,
  };
}
