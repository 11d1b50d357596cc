/**
 * Creates (or finds again) the git worktree an issue is worked in. Called at run start
 * and again whenever the activity is retried or the run resumes, so every branch of
 * this function is "find what exists, create only what is missing".
 *
 * The branch and worktree belong to one agent (branch-owner.ts): another agent's are
 * refused with WORKTREE_OWNED before anything is touched, and so is a second live branch
 * of the issue under another branchPrefix.
 *
 * Before the run's first step it also records the repository's git config and hooks
 * (git-state-snapshot; a resumed run keeps its first snapshot) and creates the agent's
 * private HOME; sandbox state of worktrees that are gone is swept first.
 */
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { IssueSnapshot, PrepareWorkspaceInput, PrepareWorkspaceOutput } from '../../contracts/activities.js';
import type { IssueSourceFactory } from '../issues/issue-source.js';
import { git, gitOrThrow } from './git/git.js';
import { withRepoLock } from './git/repo-lock.js';
import {
  branchExists,
  currentBranch,
  hasCommits,
  isGitWorkTree,
  isValidBranchName,
  listWorktrees,
  realOrSelf,
} from './git/repo-queries.js';
import { gitDirsOf, snapshotGitState } from './git/git-state-snapshot.js';
import { ensurePrivateRepo } from './private-repo/create-private-repo.js';
import { ensureAgentHome, removeAgentSandbox, sweepStaleSandboxesOccasionally } from './sandbox-state.js';
import { ensureExcluded } from './ensure-excluded.js';
import { recordRunBranch } from './run-refs.js';
import { legacyWorktreePath, worktreeLayout } from './worktree-layout.js';
import { isDeadWorktree, sweepDeadWorktreesOccasionally } from './state-worktrees.js';
import { claimBranch, refuseIfOwnedByAnother, refuseSecondLiveBranch, setBranchOwner } from './branch-owner.js';
import { isMissing } from '../../definition/load/read-optional.js';
import { BASE_CONFIG_KEY, recutUntouchedBranch } from './branch-base-drift.js';

export interface PrepareWorkspaceDeps {
  readonly issueSource: IssueSourceFactory;
  /** The worker's state dir, home of the default worktree root (default: harnessStateBase()). */
  readonly stateDir?: string;
}

export async function prepareWorkspace(
  deps: PrepareWorkspaceDeps,
  input: PrepareWorkspaceInput,
): Promise<PrepareWorkspaceOutput> {
  const repoPath = await assertRepo(input.repoPath);
  // Read before taking the lock (for GitHub a network call): runs sharing a repository
  // queue only for the git writes.
  const issue = await deps.issueSource(input.issueSource, repoPath).read(input.issue);
  // Outside the lock too: the sweep only removes the state of worktrees that are gone (it
  // already runs alongside other repositories' runs), and the agent's HOME is this worktree's.
  await sweepStaleSandboxesOccasionally();
  await sweepDeadWorktreesOccasionally(deps.stateDir);
  const prepared = await withRepoLock(repoPath, async () => {
    const locked = await prepareLocked(issue, input, repoPath, deps.stateDir);
    await snapshotGitState(repoPath, locked.worktreePath, { keepExisting: locked.reused });
    await ensureOwnRepository(repoPath, locked);
    return locked;
  });
  await ensureAgentHome(prepared.worktreePath);
  // What the sandbox lets this worktree's commands write of the shared git dir, and the branch judged (run-refs).
  await recordRunBranch(prepared.worktreePath, prepared.branch);
  return prepared;
}

async function prepareLocked(
  issue: IssueSnapshot,
  input: PrepareWorkspaceInput,
  repoPath: string,
  stateDir: string | undefined,
): Promise<PrepareWorkspaceOutput> {
  const commonDir = await commonGitDir(repoPath);
  const layout = worktreeLayout({
    repoPath,
    commonDir,
    issue: input.issue,
    worktreeRoot: input.worktreeRoot,
    branchPrefix: input.branchPrefix,
    ...(stateDir === undefined ? {} : { stateDir }),
  });
  if (!(await isValidBranchName(repoPath, layout.branch))) {
    throw new AgentError(
      FailureType.ConfigInvalid,
      `Branch name ${JSON.stringify(layout.branch)} is not a valid git branch name`,
      {
        where: 'worktree.branchPrefix',
        expected: 'a prefix such as `agent`',
      },
    );
  }
  if (layout.root !== undefined) await ensureExcluded(repoPath, layout.root);

  const worktrees = await listWorktrees(repoPath);
  // A run begun before the default moved out of the git dir resumes where its worktree is.
  const legacy = layout.root === undefined ? legacyWorktreePath(commonDir, input.issue) : undefined;
  const atLegacy = legacy !== undefined && worktrees.some((w) => w.path === legacy && !w.prunable);
  const worktreePath = atLegacy ? legacy : await realOrSelf(layout.worktreePath);
  const existing = worktrees.find((w) => w.path === worktreePath && !w.prunable);
  const claim = { repoPath, branch: layout.branch, worktreePath, issue: input.issue, agent: input.agent };
  if (existing) {
    if (existing.branch !== layout.branch) {
      await refuseIfOwnedByAnother(claim, existing);
      throw worktreeError(
        `${worktreePath} is a worktree on ${existing.branch ?? 'a detached HEAD'}, not on ${layout.branch}`,
        worktreePath,
      );
    }
    await claimBranch(claim);
    if (input.resumeAt === undefined) await recutUntouchedBranch(repoPath, layout.branch);
    return {
      worktreePath,
      branch: layout.branch,
      baseBranch: await baseOf(repoPath, layout.branch),
      reused: true,
      issue,
    };
  }
  await refuseSecondLiveBranch(claim, worktrees);
  if (worktrees.some((w) => w.prunable)) await git(repoPath, ['worktree', 'prune']);
  // Left by a repository deleted or cloned afresh at the same path (state-worktrees.ts).
  if (layout.root === undefined && (await isDeadWorktree(layout.worktreePath)))
    await rm(layout.worktreePath, { recursive: true, force: true });
  await assertFreeDirectory(layout.worktreePath);
  await mkdir(dirname(layout.worktreePath), { recursive: true });

  if (await branchExists(repoPath, layout.branch)) {
    // The branch survived but its worktree did not (deleted dir, pruned): re-attach it.
    const holder = worktrees.find((w) => w.branch === layout.branch && !w.prunable);
    if (holder) await refuseIfOwnedByAnother(claim, holder);
    if (holder) throw worktreeError(`branch ${layout.branch} is already checked out at ${holder.path}`, holder.path);
    await claimBranch(claim);
    if (input.resumeAt === undefined) await recutUntouchedBranch(repoPath, layout.branch);
    await gitOrThrow(repoPath, ['worktree', 'add', layout.worktreePath, layout.branch], FailureType.WorktreeFailed);
    return {
      worktreePath: await realOrSelf(layout.worktreePath),
      branch: layout.branch,
      baseBranch: await baseOf(repoPath, layout.branch),
      reused: true,
      issue,
    };
  }

  const baseBranch = await currentBranch(repoPath);
  if (baseBranch === undefined)
    throw worktreeError(
      `${repoPath} is on a detached HEAD; check out the branch the issue branch should start from`,
      repoPath,
    );
  // A new branch, so a worktree never prepared: whatever sandbox state this path has is an
  // earlier worktree's (a discarded run, a repository cloned afresh here) that the sweep has
  // not reached yet: its environment report, HOME and private repository are not this one's.
  await removeAgentSandbox(join(await realOrSelf(dirname(layout.worktreePath)), basename(layout.worktreePath)));
  await gitOrThrow(
    repoPath,
    ['worktree', 'add', '-b', layout.branch, layout.worktreePath, baseBranch],
    FailureType.WorktreeFailed,
  );
  await gitOrThrow(
    repoPath,
    ['config', `branch.${layout.branch}.${BASE_CONFIG_KEY}`, baseBranch],
    FailureType.WorktreeFailed,
  );
  if (input.agent !== undefined) await setBranchOwner(repoPath, layout.branch, input.agent);
  return {
    worktreePath: await realOrSelf(layout.worktreePath),
    branch: layout.branch,
    baseBranch,
    reused: false,
    issue,
  };
}

/** The agent's own repository for the worktree (private-repo), made before its first command. */
async function ensureOwnRepository(repoPath: string, prepared: PrepareWorkspaceOutput): Promise<void> {
  const { commonDir, gitDir } = await gitDirsOf(prepared.worktreePath);
  if (resolve(commonDir) === resolve(gitDir)) return;
  await ensurePrivateRepo({
    repoPath,
    worktreePath: prepared.worktreePath,
    userCommonDir: commonDir,
    userAdminDir: gitDir,
    branch: prepared.branch,
  });
}

async function commonGitDir(repoPath: string): Promise<string> {
  const raw = await gitOrThrow(
    repoPath,
    ['rev-parse', '--path-format=absolute', '--git-common-dir'],
    FailureType.RepoNotFound,
  );
  return realOrSelf(raw.trim());
}

async function assertRepo(repoPath: string): Promise<string> {
  const exists = await stat(repoPath).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!exists || !(await isGitWorkTree(repoPath))) {
    throw new AgentError(FailureType.RepoNotFound, `${repoPath} is not a git repository`, {
      where: repoPath,
      expected: exists ? 'a directory inside a git work tree (run `git init`)' : 'an existing directory',
    });
  }
  if (!(await hasCommits(repoPath))) {
    throw new AgentError(FailureType.RepoNotFound, `${repoPath} has no commits yet; a worktree needs a base commit`, {
      where: repoPath,
      expected: 'at least one commit on the current branch',
    });
  }
  return realOrSelf(repoPath);
}

/** The base recorded at creation; the current branch only for branches we did not create. */
async function baseOf(repoPath: string, branch: string): Promise<string> {
  const recorded = await git(repoPath, ['config', '--get', `branch.${branch}.${BASE_CONFIG_KEY}`]);
  if (recorded.exitCode === 0 && recorded.stdout.trim() !== '') return recorded.stdout.trim();
  const current = await currentBranch(repoPath);
  if (current === undefined)
    throw worktreeError(`cannot tell the base branch of ${branch}: ${repoPath} is on a detached HEAD`, repoPath);
  return current;
}

async function assertFreeDirectory(path: string): Promise<void> {
  const entries = await readdir(path).catch((error: unknown) => {
    if (isMissing(error)) return [];
    throw error;
  });
  if (entries.length > 0) throw worktreeError(`${path} exists and is not a git worktree; move it away`, path);
}

function worktreeError(message: string, where: string): AgentError {
  return new AgentError(FailureType.WorktreeFailed, message, { where });
}
