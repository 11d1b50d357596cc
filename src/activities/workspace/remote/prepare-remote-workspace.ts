/**
 * prepareWorkspace for a run on a remote repository (its `repoPath` is a git URL): the
 * worktree is made in this worker's clone of the repository (repo-cache.ts), fetched
 * first, by the same code as for a local checkout. Whichever worker runs this activity
 * (it is on the shared queue) becomes the run's host: its host queue is returned.
 *
 * A run that moves here because its host is gone (`resumeAt`: the checkpoint of its last
 * completed step) gets its branch put at that checkpoint's parent (the branch as the
 * step left it) and its files at the checkpoint, from the refs the old host pushed to
 * the remote (remote-checkpoints.ts); the checkpoint marker says so, so the next step
 * starts from there without restoring again.
 */
import { AgentError } from '../../../contracts/errors.js';
import { FailureType } from '../../../contracts/failures.js';
import type { PrepareWorkspaceInput, PrepareWorkspaceOutput } from '../../../contracts/workspace.js';
import { checkpointNamespace } from '../../../contracts/worktree-checkpoint.js';
import { withoutCredentials } from '../../../contracts/repo-url.js';
import type { IssueSourceFactory } from '../../issues/issue-source.js';
import { git, gitOrThrow } from '../git/git.js';
import { branchExists, currentBranch, listWorktrees } from '../git/repo-queries.js';
import { markerPath, writeMarker, commonGitDir } from '../checkpoints/checkpoint-files.js';
import { checkpointExists, restoreWorktreeCheckpoint } from '../checkpoints/restore-checkpoint.js';
import { prepareWorkspace } from '../prepare-workspace.js';
import { worktreeLayout } from '../worktree-layout.js';
import { ensureRepoCache } from './repo-cache.js';
import { checkpointRefspec, remoteCheckpointRef } from './remote-checkpoints.js';
import type { RemoteGit } from './remote-git.js';

export interface RemoteWorkspaceDeps {
  readonly issueSource: IssueSourceFactory;
  readonly remoteGit: RemoteGit;
  readonly stateDir: string;
}

export interface RemoteWorkspaceScope {
  readonly workflowId: string;
  readonly runId: string;
  readonly activityId: string;
}

export async function prepareRemoteWorkspace(
  deps: RemoteWorkspaceDeps,
  input: PrepareWorkspaceInput,
  scope: RemoteWorkspaceScope,
): Promise<PrepareWorkspaceOutput> {
  const namespace = checkpointNamespace(scope.workflowId, input.issue);
  const cache = await ensureRepoCache(deps.remoteGit, deps.stateDir, input.repoPath, [checkpointRefspec(namespace)]);
  if (input.resumeAt !== undefined) await placeBranchAtCheckpoint(cache, input, input.resumeAt, namespace);
  const { resumeAt: _resumeAt, ...local } = input;
  const prepared = await prepareWorkspace(
    { issueSource: deps.issueSource, stateDir: deps.stateDir },
    { ...local, repoPath: cache },
  );
  if (input.resumeAt !== undefined) {
    await restoreWorktreeCheckpoint(prepared.worktreePath, input.resumeAt);
    await writeMarker(await markerPath(prepared.worktreePath, namespace), {
      checkpoint: input.resumeAt,
      dirty: false,
      scope: `${scope.runId}/${scope.activityId}`,
      runId: scope.runId,
    });
  }
  return prepared;
}

/**
 * The run's branch at the checkpoint's parent, unless a worktree of this host already
 * holds the branch (then restoring the worktree moves it). Its base is this clone's
 * branch (the remote's default), as on the first host.
 */
async function placeBranchAtCheckpoint(
  cache: string,
  input: PrepareWorkspaceInput,
  checkpoint: string,
  namespace: string,
): Promise<void> {
  if (!(await checkpointExists(cache, checkpoint))) {
    throw new AgentError(
      FailureType.WorktreeFailed,
      `the checkpoint ${checkpoint.slice(0, 12)} of the run's last completed step is not on ${withoutCredentials(input.repoPath)} (${remoteCheckpointRef(namespace)}/*)`,
      {
        where: remoteCheckpointRef(namespace),
        expected: 'the step checkpoints the run pushed to its remote (deleted only after delivery)',
      },
    );
  }
  const layout = worktreeLayout({
    repoPath: cache,
    commonDir: await commonGitDir(cache),
    issue: input.issue,
    worktreeRoot: input.worktreeRoot,
    branchPrefix: input.branchPrefix,
  });
  await git(cache, ['worktree', 'prune']);
  const held = (await listWorktrees(cache)).some((w) => w.branch === layout.branch && !w.prunable);
  if (held) return;
  const parent = await git(cache, ['rev-parse', '--verify', '--quiet', `${checkpoint}^1`]);
  const at = parent.exitCode === 0 ? parent.stdout.trim() : checkpoint;
  await gitOrThrow(cache, ['branch', '--force', '--no-track', layout.branch, at], FailureType.WorktreeFailed);
  if (!(await branchExists(cache, layout.branch))) return;
  const base = await currentBranch(cache);
  if (base !== undefined)
    await gitOrThrow(cache, ['config', `branch.${layout.branch}.agentBase`, base], FailureType.WorktreeFailed);
}
