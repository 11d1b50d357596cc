/**
 * What the activities of a run on a remote repository do differently, in one place, so
 * the activity composition (create-activities.ts) only asks `remote.…`:
 * - the worktree is prepared in this worker's clone (prepare-remote-workspace.ts);
 * - a `repoPath` that is a URL means this worker's clone of it (the environment phase,
 *   the boundary hook and issue reads run where the worktree is);
 * - a relative artifacts dir (the client has no disk of the worker's) is under the
 *   worker's state dir;
 * - a step's checkpoint is pushed to the remote after the step, for the worktree of a
 *   remote run only (it lives in this worker's clones).
 */
import { realpathSync } from 'node:fs';
import type { PrepareWorkspaceInput, PrepareWorkspaceOutput } from '../../../contracts/workspace.js';
import type { WorktreeCheckpointRequest } from '../../../contracts/worktree-checkpoint.js';
import { isRepoUrl } from '../../../contracts/repo-url.js';
import type { IssueSourceFactory } from '../../issues/issue-source.js';
import { hostArtifactsDir, isInRepoCache, repoCacheDir } from './repo-cache-layout.js';
import { ensureRepoCache } from './repo-cache.js';
import { prepareRemoteWorkspace, type RemoteWorkspaceScope } from './prepare-remote-workspace.js';
import { publishCheckpoint } from './remote-checkpoints.js';
import { worktreeAdminDir } from '../state-worktrees.js';
import type { RemoteGit } from './remote-git.js';

export interface RemoteRuns {
  readonly remoteGit: RemoteGit;
  readonly stateDir: string;
  prepareWorkspace(input: PrepareWorkspaceInput, scope: RemoteWorkspaceScope): Promise<PrepareWorkspaceOutput>;
  /** This worker's clone for a URL (cloned or fetched now when `fetch`), any other path as is. */
  repoPathOnHost(repoPath: string, options?: { readonly fetch?: boolean }): Promise<string>;
  artifactsDir(dir: string): string;
  /** After a step activity: its checkpoint pushed to the remote when the worktree is a remote run's. */
  publishStep<T extends { readonly worktreeCheckpoint?: string }>(
    worktreePath: string,
    request: WorktreeCheckpointRequest | undefined,
    result: T,
  ): Promise<T>;
}

export function createRemoteRuns(deps: {
  readonly remoteGit: RemoteGit;
  readonly stateDir: string;
  readonly issueSource: IssueSourceFactory;
}): RemoteRuns {
  const { remoteGit, stateDir } = deps;
  const real = (() => {
    try {
      return realpathSync(stateDir);
    } catch {
      return stateDir;
    }
  })();
  // A remote run's worktree is in the state dir's `worktrees/` (worktree-layout.ts); its git
  // dir, named by its `.git` file, is in this worker's clone.
  const inCache = (path: string): boolean =>
    [path, worktreeAdminDir(path)].some(
      (p) => p !== undefined && (isInRepoCache(stateDir, p) || isInRepoCache(real, p)),
    );
  const cloned = new Set<string>();
  return {
    remoteGit,
    stateDir,
    prepareWorkspace: (input, scope) =>
      prepareRemoteWorkspace({ issueSource: deps.issueSource, remoteGit, stateDir }, input, scope),
    repoPathOnHost: async (repoPath, options = {}) => {
      if (!isRepoUrl(repoPath)) return repoPath;
      if (options.fetch !== true && cloned.has(repoPath)) return repoCacheDir(stateDir, repoPath);
      const dir = await ensureRepoCache(remoteGit, stateDir, repoPath);
      cloned.add(repoPath);
      return dir;
    },
    artifactsDir: (dir) => hostArtifactsDir(stateDir, dir),
    publishStep: async (worktreePath, request, result) => {
      const commit = result.worktreeCheckpoint;
      if (request === undefined || commit === undefined || !inCache(worktreePath)) return result;
      // A step that changed nothing has the last step's checkpoint, already on the remote.
      if (commit === request.expected) return result;
      await publishCheckpoint(remoteGit, worktreePath, request.ref, commit);
      return result;
    },
  };
}
