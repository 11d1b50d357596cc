/**
 * Where an issue's branch and worktree live: `1 issue = 1 branch = 1 worktree = 1 agent`,
 * so both names derive from the issue number alone and a resumed run finds them again;
 * which agent may work them is recorded beside the branch (branch-owner.ts). By default
 * the worktree lives under the repository's common git dir (`<git-dir>/agent/worktrees/
 * issue-<n>`): outside the work tree, so the user's test runner, linters and file watchers
 * never see it. An explicit `worktree.root` in agent.json (a path relative to the
 * repository, e.g. `.worktrees`) still puts it there, listed in `.git/info/exclude`.
 */
import { isAbsolute, join, normalize, sep } from 'node:path';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';

export interface WorktreeLayout {
  readonly branch: string;
  readonly worktreePath: string;
  /** Normalised root relative to the repository, e.g. `.worktrees`; undefined under the git dir. */
  readonly root: string | undefined;
}

/** `<git-common-dir>/agent/worktrees`: the default worktree root. */
export function defaultWorktreeRoot(commonDir: string): string {
  return join(commonDir, 'agent', 'worktrees');
}

/** `<prefix>/issue-<n>` (just `issue-<n>` with an empty prefix): the issue's one branch. */
export function issueBranch(branchPrefix: string, issue: number): string {
  const prefix = branchPrefix.replace(/\/+$/, '');
  return prefix === '' ? `issue-${issue}` : `${prefix}/issue-${issue}`;
}

export function worktreeLayout(options: {
  repoPath: string;
  /** The repository's common git dir (absolute); used when worktreeRoot is not set. */
  commonDir: string;
  issue: number;
  worktreeRoot: string | undefined;
  branchPrefix: string;
}): WorktreeLayout {
  const branch = issueBranch(options.branchPrefix, options.issue);
  if (options.worktreeRoot === undefined) {
    return {
      branch,
      worktreePath: join(defaultWorktreeRoot(options.commonDir), `issue-${options.issue}`),
      root: undefined,
    };
  }
  const root = normalize(options.worktreeRoot).replace(/[\\/]+$/, '');
  if (root === '' || root === '.' || isAbsolute(root) || root === '..' || root.startsWith(`..${sep}`)) {
    throw new AgentError(
      FailureType.ConfigInvalid,
      `Worktree root ${JSON.stringify(options.worktreeRoot)} must be a directory inside the repository`,
      {
        where: 'worktree.root',
        expected: 'a relative path such as `.worktrees`, or no root (worktrees under the git dir)',
      },
    );
  }
  return { branch, worktreePath: join(options.repoPath, root, `issue-${options.issue}`), root };
}
