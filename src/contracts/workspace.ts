/**
 * The run's worktree as prepareWorkspace makes it: the issue it works, the branch and
 * worktree it works in, and the worker host that holds them.
 */
import type { IssueSourceKind } from './run.js';

export interface IssueSnapshot {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly labels: readonly string[];
  readonly state: 'open' | 'closed';
}

export interface PrepareWorkspaceInput {
  readonly repoPath: string;
  readonly issue: number;
  readonly issueSource: IssueSourceKind;
  /** Relative to the repository; undefined: `<state-dir>/worktrees/<checkout>-<hash>` (worktree-layout.ts). */
  readonly worktreeRoot: string | undefined;
  readonly branchPrefix: string;
  /**
   * The agent (its definition's name) the branch and worktree are prepared for: another
   * agent's are refused (WORKTREE_OWNED). Absent in activities scheduled before owners existed.
   */
  readonly agent?: string;
  /**
   * A remote repository's run moving to this host (its host is gone): the checkpoint of
   * its last completed step, fetched from the remote and put in the new worktree.
   */
  readonly resumeAt?: string;
}

export interface PrepareWorkspaceOutput {
  readonly worktreePath: string;
  readonly branch: string;
  readonly baseBranch: string;
  readonly reused: boolean;
  readonly issue: IssueSnapshot;
  /**
   * The task queue of the worker host that holds the worktree: every later
   * worktree-bound activity of the run is routed there, so several hosts can serve one
   * namespace safely (1 issue = 1 worktree on one disk).
   */
  readonly hostTaskQueue?: string;
}
