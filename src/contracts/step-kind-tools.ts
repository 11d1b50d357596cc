/**
 * What each step kind may do with its tools by default (docs/concepts.md#step-kinds; upstream
 * `STEP_KIND_TOOL_POLICY`): one table, read by the loader (a step's `readOnly` default)
 * and by the tool activity (which tools and GitHub actions a step gets). Pure.
 *
 * - work: edits the worktree (editor writes, a writable worktree for bash); reads GitHub.
 * - verification: read-only by default (upstream `permissionMode: plan`); reads GitHub.
 * - closure: edits the worktree; reads GitHub, comments on the run's issue, sets the
 *   labels the agent declares. Closing the issue, pushing and merging are never tools:
 *   only the boundary hook does them, after a validated `closing`.
 *
 * A step's own `readOnly` or `permissionMode` overrides the write default (see
 * normalise-steps); an agent whose `allowedTools` name no write tool makes every step
 * read-only.
 */
import type { StepKind } from './intents.js';

/** What the `github` tool can be asked to do. */
export const GitHubAction = {
  IssueView: 'issue_view',
  PrView: 'pr_view',
  Comment: 'comment',
  SetLabels: 'set_labels',
} as const;
export type GitHubAction = (typeof GitHubAction)[keyof typeof GitHubAction];

export const ALL_GITHUB_ACTIONS: readonly GitHubAction[] = Object.values(GitHubAction);

export interface StepKindAccess {
  /** Editor writes and a writable worktree for bash, unless the step says otherwise. */
  readonly writesByDefault: boolean;
  readonly github: readonly GitHubAction[];
}

const READ: readonly GitHubAction[] = [GitHubAction.IssueView, GitHubAction.PrView];

export const STEP_KIND_ACCESS: Readonly<Record<StepKind, StepKindAccess>> = {
  work: { writesByDefault: true, github: READ },
  verification: { writesByDefault: false, github: READ },
  closure: { writesByDefault: true, github: [...READ, GitHubAction.Comment, GitHubAction.SetLabels] },
};

/** Upstream permission modes and whether they let a step write. */
export const PermissionMode = {
  Default: 'default',
  Plan: 'plan',
  AcceptEdits: 'acceptEdits',
  BypassPermissions: 'bypassPermissions',
} as const;
export type PermissionMode = (typeof PermissionMode)[keyof typeof PermissionMode];

export function permissionModeWrites(mode: PermissionMode): boolean {
  switch (mode) {
    case 'plan':
      return false;
    case 'default':
    case 'acceptEdits':
    case 'bypassPermissions':
      return true;
  }
}

export function isPermissionMode(value: unknown): value is PermissionMode {
  return typeof value === 'string' && (Object.values(PermissionMode) as string[]).includes(value);
}

/**
 * A step's read-only flag: its own `readOnly`, else its own `permissionMode`, else the
 * kind's default (upstream precedence: step → step kind; the agent-level mode never
 * reaches a kinded step).
 */
export function stepReadOnly(kind: StepKind, readOnly: boolean | undefined, permissionMode: unknown): boolean {
  if (readOnly !== undefined) return readOnly;
  if (isPermissionMode(permissionMode)) return !permissionModeWrites(permissionMode);
  return !STEP_KIND_ACCESS[kind].writesByDefault;
}
