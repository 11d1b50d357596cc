/**
 * Where an issue's branch and worktree live: `1 issue = 1 branch = 1 worktree`, so both
 * names derive from the issue number alone and a resumed run finds them again.
 */
import { isAbsolute, join, normalize, sep } from 'node:path';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';

export interface WorktreeLayout {
  readonly branch: string;
  readonly worktreePath: string;
  /** Normalised root relative to the repository, e.g. `.worktrees`. */
  readonly root: string;
}

export function worktreeLayout(options: {
  repoPath: string;
  issue: number;
  worktreeRoot: string;
  branchPrefix: string;
}): WorktreeLayout {
  const root = normalize(options.worktreeRoot).replace(/[\\/]+$/, '');
  if (root === '' || root === '.' || isAbsolute(root) || root === '..' || root.startsWith(`..${sep}`)) {
    throw new AgentError(
      FailureType.ConfigInvalid,
      `Worktree root ${JSON.stringify(options.worktreeRoot)} must be a directory inside the repository`,
      {
        where: 'worktree.root',
        expected: 'a relative path such as `.worktrees`',
      },
    );
  }
  const prefix = options.branchPrefix.replace(/\/+$/, '');
  return {
    branch: prefix === '' ? `issue-${options.issue}` : `${prefix}/issue-${options.issue}`,
    worktreePath: join(options.repoPath, root, `issue-${options.issue}`),
    root,
  };
}
