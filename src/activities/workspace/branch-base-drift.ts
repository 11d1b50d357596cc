/**
 * An issue branch left by an earlier run whose base branch moved since it was cut. A run
 * that failed before any step (ENVIRONMENT_FAILED: setup could not install) leaves
 * `agent/issue-N` at the old base; the user fixes the repository with a new commit on
 * main, and a rerun that picked up the stale branch would not see the fix. So: a branch
 * with nothing of its own (no commit beyond its base, no changed or new file in its
 * worktree) is moved to the base's new tip before the run (recutUntouchedBranch); a
 * branch with work is kept, and the CLI says so in one line naming the branch, its base
 * commit, the new one and how to start fresh (baseDriftNote; there is no flag for it). A
 * branch with work whose base did not move is said too: a new run continues on it.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { FailureType } from '../../contracts/failures.js';
import { git, gitOrThrow } from './git/git.js';
import { branchExists, listWorktrees } from './git/repo-queries.js';
import { privateRepoLayout } from './private-repo/private-repo-layout.js';
import { issueBranch } from './worktree-layout.js';

/** The config key prepareWorkspace records the base branch under (`branch.<b>.agentBase`). */
export const BASE_CONFIG_KEY = 'agentBase';

export interface BaseDrift {
  readonly branch: string;
  readonly baseBranch: string;
  /** Where the branch left its base (the merge-base). */
  readonly baseCommit: string;
  /** The base branch's tip now. */
  readonly newBaseCommit: string;
  /** Commits of the branch not on the base branch. */
  readonly ownCommits: number;
  /** The branch's live worktree, when it has one. */
  readonly worktreePath?: string;
  /** A file of the worktree differs from the branch or is new (not ignored): work not on the branch. */
  readonly uncommitted: boolean;
}

async function out(dir: string, args: readonly string[]): Promise<string | undefined> {
  const r = await git(dir, args);
  return r.exitCode === 0 && r.stdout.trim() !== '' ? r.stdout.trim() : undefined;
}

/**
 * Git's view of a worktree from the user's repository (its admin dir there), run from
 * the repository: in the worktree itself git would run in the sandbox, on the agent's
 * private repository, whose branch is not the one to move. The admin dir is the one of
 * the user's `<common>/worktrees/` whose `gitdir` names this worktree, never what the
 * worktree's own `.git` file says: that file is the agent's to read, and a git dir of its
 * choosing (its own, or another run's admin dir) would bring its config and filters, or
 * another branch, to host git.
 */
async function userView(
  repoPath: string,
  worktreePath: string,
  args: readonly string[],
): Promise<string[] | undefined> {
  const common = await out(repoPath, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  if (common === undefined) return undefined;
  const admins = path.join(common, 'worktrees');
  const dotGit = path.join(path.resolve(worktreePath), '.git');
  for (const name of await readdir(admins).catch(() => [] as string[])) {
    const gitdir = await readFile(path.join(admins, name, 'gitdir'), 'utf8').catch(() => '');
    if (path.resolve(admins, name, gitdir.trim()) === dotGit)
      return ['--git-dir', path.join(admins, name), '--work-tree', worktreePath, ...args];
  }
  return undefined;
}

/** The branch against its recorded base; undefined when there is no such branch, no recorded base, or it did not move. */
export async function baseDrift(repoPath: string, branch: string): Promise<BaseDrift | undefined> {
  const state = await branchAgainstBase(repoPath, branch);
  return state === undefined || state.baseCommit === state.newBaseCommit ? undefined : state;
}

/** The branch against its recorded base, moved or not; undefined when there is no such branch or no recorded base. */
async function branchAgainstBase(repoPath: string, branch: string): Promise<BaseDrift | undefined> {
  if (!(await branchExists(repoPath, branch))) return undefined;
  const baseBranch = await out(repoPath, ['config', '--get', `branch.${branch}.${BASE_CONFIG_KEY}`]);
  if (baseBranch === undefined) return undefined;
  const newBaseCommit = await out(repoPath, ['rev-parse', '--verify', '--end-of-options', `refs/heads/${baseBranch}`]);
  const baseCommit = await out(repoPath, ['merge-base', `refs/heads/${baseBranch}`, `refs/heads/${branch}`]);
  if (newBaseCommit === undefined || baseCommit === undefined) return undefined;
  const count = await out(repoPath, ['rev-list', '--count', `refs/heads/${baseBranch}..refs/heads/${branch}`]);
  const holder = (await listWorktrees(repoPath)).find((w) => w.branch === branch && !w.prunable);
  // A status git could not give counts as changes: the branch is then kept, never moved.
  // Untracked files count: the agent's commits live in its own repository until delivery,
  // so from the user's branch the new files of a failed run are untracked, and re-cutting
  // would delete that repository with them.
  const view = holder === undefined ? undefined : await userView(repoPath, holder.path, ['status', '--porcelain']);
  const status =
    holder === undefined
      ? { exitCode: 0, stdout: '' }
      : view === undefined
        ? { exitCode: 1, stdout: '' }
        : await git(repoPath, view);
  return {
    branch,
    baseBranch,
    baseCommit,
    newBaseCommit,
    ownCommits: Number(count ?? 0),
    ...(holder === undefined ? {} : { worktreePath: holder.path }),
    uncommitted: status.exitCode !== 0 || status.stdout.trim() !== '',
  };
}

/** Nothing of the agent's work is on the branch or in its worktree. */
export function untouched(drift: BaseDrift): boolean {
  return drift.ownCommits === 0 && !drift.uncommitted;
}

/**
 * Moves an untouched branch whose base moved to the base's tip (its worktree's files
 * with it, and a fresh private repository made from it); returns the drift acted on.
 */
export async function recutUntouchedBranch(repoPath: string, branch: string): Promise<BaseDrift | undefined> {
  const drift = await baseDrift(repoPath, branch);
  if (drift === undefined || !untouched(drift)) return undefined;
  if (drift.worktreePath === undefined) {
    await gitOrThrow(repoPath, ['branch', '-f', branch, drift.newBaseCommit], FailureType.WorktreeFailed);
    return drift;
  }
  // Its files move with it (no hook runs: harness git); the private repository still
  // holds the old tip and index, so it is made again from the moved branch.
  const merge = await userView(repoPath, drift.worktreePath, ['merge', '--ff-only', '--quiet', drift.newBaseCommit]);
  if (merge === undefined) return undefined; // baseDrift found it too: not untouched
  await gitOrThrow(repoPath, merge, FailureType.WorktreeFailed);
  await rm(privateRepoLayout(drift.worktreePath).root, { recursive: true, force: true });
  return drift;
}

/**
 * The one-line note for `start-run`, or undefined when the run starts at the base's tip
 * with nothing of an earlier run (no branch, or one without work that is at the base or
 * that prepareWorkspace re-cuts).
 */
export async function baseDriftNote(
  repoPath: string,
  branchPrefix: string,
  issue: number,
): Promise<string | undefined> {
  const drift = await branchAgainstBase(repoPath, issueBranch(branchPrefix, issue));
  if (drift === undefined) return undefined;
  const short = (commit: string): string => commit.slice(0, 12);
  const moved = drift.baseCommit !== drift.newBaseCommit;
  if (untouched(drift))
    return moved
      ? `note: ${drift.branch} has no work of its own; it moves from ${short(drift.baseCommit)} to ${drift.baseBranch} at ${short(drift.newBaseCommit)}`
      : undefined;
  const work = drift.ownCommits > 0 ? `${drift.ownCommits} commit(s) of its own` : 'uncommitted changes';
  const remove = drift.worktreePath === undefined ? '' : `git worktree remove --force ${drift.worktreePath} && `;
  // An earlier run's work, kept: a new run continues on it (checks included), which a user starting afresh must know.
  if (!moved)
    return `note: ${drift.branch} holds the work of an earlier run (${work}); this run continues on it; to start fresh: ${remove}git branch -D ${drift.branch}`;
  return (
    `note: ${drift.branch} keeps its work (${work}) on ${drift.baseBranch} at ${short(drift.baseCommit)}, ` +
    `not ${drift.baseBranch} now at ${short(drift.newBaseCommit)}; to start fresh: ${remove}git branch -D ${drift.branch}`
  );
}
