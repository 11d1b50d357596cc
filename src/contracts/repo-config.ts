/**
 * Per-repository configuration (`<repo>/.agent/config.json`, optional) and what a run
 * takes from it: the repository's own commands reach the validators as overrides of the
 * agent definition, so the agent files stay shared and unedited.
 */
import type { IssueSourceKind } from './run.js';
import type { RunBudget } from './usage.js';

export const RepoCommandKey = { Test: 'test', TypeCheck: 'typeCheck', Lint: 'lint', Format: 'format' } as const;
export type RepoCommandKey = (typeof RepoCommandKey)[keyof typeof RepoCommandKey];

export type RepoCommands = Partial<Record<RepoCommandKey, string>>;

export const DeliveryMode = { Branch: 'branch', Pr: 'pr', Merge: 'merge', Squash: 'squash' } as const;
export type DeliveryMode = (typeof DeliveryMode)[keyof typeof DeliveryMode];

/** The file as written (validated). */
export interface RepoConfigFile {
  readonly commands?: RepoCommands;
  readonly baseBranch?: string;
  readonly deliver?: DeliveryMode;
  readonly budget?: RunBudget;
  readonly maxIterations?: number;
  readonly model?: string;
  readonly issues?: IssueSourceKind;
  /** Agent directory relative to `.agent/` (e.g. `agents/default`), or an absolute path. */
  readonly agent?: string;
}

/** Applied by the loadDefinition activity over agent.json, so the files stay untouched. */
export interface DefinitionOverrides {
  readonly validationCommands?: RepoCommands;
  readonly model?: string;
}
