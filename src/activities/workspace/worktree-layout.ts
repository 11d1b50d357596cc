/**
 * Where an issue's branch and worktree live: `1 issue = 1 branch = 1 worktree = 1 agent`,
 * so both names derive from the issue number alone and a resumed run finds them again;
 * which agent may work them is recorded beside the branch (branch-owner.ts).
 *
 * By default the worktree lives in the worker's state dir, one directory per repository
 * (`<state>/worktrees/<checkout>-<hash of its git dir>/issue-<n>`): outside the work tree,
 * so the user's test runner, linters and file watchers never see it, and outside any
 * `.git` directory, which tools skip as version-control data (Jest finds no test under a
 * path with a `/.git/` segment). Earlier versions put it under the git dir
 * (`<git-dir>/agent/worktrees/issue-<n>`); a live worktree there is still used
 * (prepare-workspace). An explicit `worktree.root` in agent.json (a path relative to the
 * repository, e.g. `.worktrees`) puts it there, listed in `.git/info/exclude`.
 */
import { createHash } from 'node:crypto';
import { basename, dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { harnessStateBase } from './sandbox-state.js';

export interface WorktreeLayout {
  readonly branch: string;
  readonly worktreePath: string;
  /** Normalised root relative to the repository, e.g. `.worktrees`; undefined in the state dir. */
  readonly root: string | undefined;
}

/** `<state>/worktrees`: where every repository's default worktree root is. */
export function worktreesStateRoot(stateDir: string = harnessStateBase()): string {
  return join(resolve(stateDir), 'worktrees');
}

/**
 * `<state>/worktrees/<checkout name>-<hash>`: the default worktree root of the repository
 * whose common git dir this is. The name says whose it is; the hash keeps two checkouts
 * of the same name apart.
 */
export function defaultWorktreeRoot(commonDir: string, stateDir: string = harnessStateBase()): string {
  const resolved = resolve(commonDir);
  const checkout = basename(resolved) === '.git' ? dirname(resolved) : resolved;
  const name = basename(checkout).replace(/[^A-Za-z0-9._-]/g, '_') || 'repository';
  const hash = createHash('sha256').update(resolved).digest('hex').slice(0, 12);
  return join(worktreesStateRoot(stateDir), `${name}-${hash}`);
}

/** Where earlier versions put an issue's worktree by default: `<git-dir>/agent/worktrees/issue-<n>`. */
export function legacyWorktreePath(commonDir: string, issue: number): string {
  return join(commonDir, 'agent', 'worktrees', `issue-${issue}`);
}

/** `<prefix>/issue-<n>` (just `issue-<n>` with an empty prefix): the issue's one branch. */
export function issueBranch(branchPrefix: string, issue: number): string {
  const prefix = branchPrefix.replace(/\/+$/, '');
  return prefix === '' ? `issue-${issue}` : `${prefix}/issue-${issue}`;
}

export function worktreeLayout(options: {
  repoPath: string;
  /** The repository's common git dir (absolute); names the default root when worktreeRoot is not set. */
  commonDir: string;
  issue: number;
  worktreeRoot: string | undefined;
  branchPrefix: string;
  /** The worker's state dir (default: harnessStateBase()), which holds the default root. */
  stateDir?: string;
}): WorktreeLayout {
  const branch = issueBranch(options.branchPrefix, options.issue);
  if (options.worktreeRoot === undefined) {
    return {
      branch,
      worktreePath: join(defaultWorktreeRoot(options.commonDir, options.stateDir), `issue-${options.issue}`),
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
        expected: "a relative path such as `.worktrees`, or no root (worktrees in the worker's state dir)",
      },
    );
  }
  return { branch, worktreePath: join(options.repoPath, root, `issue-${options.issue}`), root };
}
