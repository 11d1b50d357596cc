/**
 * Per-repository configuration (`<repo>/.agent/config.json`, optional) and what a run
 * takes from it: the repository's own commands reach the validators as overrides of the
 * agent definition, so the agent files stay shared and unedited.
 */
import type { PlanApprovalPolicy } from './plan-approval.js';
import type { IssueSourceKind } from './run.js';
import type { RunBudget } from './usage.js';

export const RepoCommandKey = { Test: 'test', TypeCheck: 'typeCheck', Lint: 'lint', Format: 'format' } as const;
export type RepoCommandKey = (typeof RepoCommandKey)[keyof typeof RepoCommandKey];

export type RepoCommands = Partial<Record<RepoCommandKey, string>>;

/**
 * `commands` as written: the validator commands, plus `setup` (one command line or a
 * list, run in order in the worktree before the first model call; replaces detection).
 * `setup` is not a validator command, so it never reaches `validationCommands`.
 */
export type RepoConfigCommands = RepoCommands & { readonly setup?: string | readonly string[] };

/** `commands.setup` as a list (a single string is one command). */
export function setupCommandsOf(commands: RepoConfigCommands | undefined): readonly string[] | undefined {
  const setup = commands?.setup;
  if (setup === undefined) return undefined;
  return typeof setup === 'string' ? [setup] : setup;
}

export const DeliveryMode = { Branch: 'branch', Pr: 'pr', Merge: 'merge', Squash: 'squash' } as const;
export type DeliveryMode = (typeof DeliveryMode)[keyof typeof DeliveryMode];

/** The file as written (validated). */
export interface RepoConfigFile {
  readonly commands?: RepoConfigCommands;
  readonly baseBranch?: string;
  readonly deliver?: DeliveryMode;
  readonly budget?: RunBudget;
  readonly maxIterations?: number;
  /** How long a run waits for an answer to the model's question before it parks (default 72). */
  readonly answerTimeoutHours?: number;
  /** When the plan needs a person's `/approve` before the run changes anything (contracts/plan-approval.ts). */
  readonly planApproval?: PlanApprovalPolicy;
  /** `agentSetup: false` turns the agent-written setup off (docs/environments/agent-setup.md); default on. */
  readonly environment?: { readonly agentSetup?: boolean };
  readonly model?: string;
  readonly issues?: IssueSourceKind;
  /** Agent directory relative to `.agent/` (e.g. `agents/default`), or an absolute path. */
  readonly agent?: string;
  /**
   * `issue-agent watch`: the mention that triggers (default `@issue-agent`), the trigger label, and
   * how many rounds of "a check failed on the delivered PR: fix it" each pull request gets (default 1; 0: none).
   */
  readonly watch?: { readonly mention?: string; readonly label?: string; readonly ciRounds?: number };
  /** `needsHuman`: the label a run that changed nothing puts on its issue (default `agent:needs-human`). */
  readonly labels?: { readonly needsHuman?: string };
}

/** Applied by the loadDefinition activity over agent.json, so the files stay untouched. */
export interface DefinitionOverrides {
  readonly validationCommands?: RepoCommands;
  readonly model?: string;
}
