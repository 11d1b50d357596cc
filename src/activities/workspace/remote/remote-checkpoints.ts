/**
 * Step checkpoints of a run on a remote repository, kept on the remote too, under a
 * private ref namespace: the local `refs/agent/<agent>/issue-<n>/step-<k>` is pushed as
 * `refs/issue-agent/<agent>/issue-<n>/step-<k>`. The checkpoint commit's ancestry holds
 * the branch's commits, so the remote then has everything the run did up to that step:
 * when the run's machine is gone for good, another worker fetches the namespace and
 * continues from the last completed step (prepare-remote-workspace.ts).
 *
 * The refs are not branches (clients do not fetch them by default) and are deleted once
 * the run is delivered.
 */
import { CHECKPOINT_REF_ROOT } from '../../../contracts/worktree-checkpoint.js';
import { git } from '../git/git.js';
import { gitDirsOf } from '../git/git-state-snapshot.js';
import { gitMessage, type RemoteGit } from './remote-git.js';

export const REMOTE_CHECKPOINT_ROOT = 'refs/issue-agent';

/** `refs/agent/…` → `refs/issue-agent/…` (a namespace or a step ref). */
export function remoteCheckpointRef(localRef: string): string {
  return localRef.startsWith(`${CHECKPOINT_REF_ROOT}/`)
    ? `${REMOTE_CHECKPOINT_ROOT}/${localRef.slice(CHECKPOINT_REF_ROOT.length + 1)}`
    : `${REMOTE_CHECKPOINT_ROOT}/${localRef.replace(/^refs\//, '')}`;
}

/** The refspec that fetches a run's remote checkpoints into the same names locally. */
export function checkpointRefspec(localNamespace: string): string {
  const remote = remoteCheckpointRef(localNamespace);
  return `+${remote}/*:${remote}/*`;
}

async function originUrl(dir: string): Promise<string> {
  const url = await git(dir, ['remote', 'get-url', 'origin']);
  return url.exitCode === 0 ? url.stdout.trim() : 'origin';
}

/**
 * Pushes one step's checkpoint commit to the remote (forced: a reset run records step k
 * again). Throws a retryable error when the remote refuses: a step whose checkpoint is
 * not on the remote could not be continued elsewhere, so the step activity tries again.
 */
export async function publishCheckpoint(
  remote: RemoteGit,
  worktreePath: string,
  localRef: string,
  commit: string,
): Promise<void> {
  // From the repository cache, not the worktree: the push holds the credential, and git
  // in the agent's worktree runs in its sandbox (no network, no credential).
  const { commonDir } = await gitDirsOf(worktreePath);
  const url = await originUrl(commonDir);
  const target = remoteCheckpointRef(localRef);
  const pushed = await remote.run(commonDir, url, ['push', '--no-verify', '--quiet', 'origin', `+${commit}:${target}`]);
  if (pushed.exitCode !== 0) {
    throw new Error(remote.redact(`could not push the step checkpoint to ${target} on origin: ${gitMessage(pushed)}`));
  }
}

/** Deletes the run's checkpoint refs on the remote (and the fetched copies); returns how many. */
export async function removeRemoteCheckpoints(
  remote: RemoteGit,
  repoPath: string,
  localNamespace: string,
): Promise<{ readonly removed: number; readonly error?: string }> {
  const url = await originUrl(repoPath);
  const namespace = remoteCheckpointRef(localNamespace);
  const listed = await remote.run(repoPath, url, ['ls-remote', 'origin', `${namespace}/*`]);
  if (listed.exitCode !== 0) return { removed: 0, error: remote.redact(gitMessage(listed)) };
  const refs = listed.stdout
    .split('\n')
    .map((line) => line.split('\t')[1]?.trim())
    .filter((ref): ref is string => ref !== undefined && ref.startsWith(`${namespace}/`));
  if (refs.length > 0) {
    const pushed = await remote.run(repoPath, url, [
      'push',
      '--no-verify',
      '--quiet',
      'origin',
      ...refs.map((r) => `:${r}`),
    ]);
    if (pushed.exitCode !== 0) return { removed: 0, error: remote.redact(gitMessage(pushed)) };
  }
  const local = await git(repoPath, ['for-each-ref', '--format=%(refname)', `${namespace}/`]);
  const input = local.stdout
    .split('\n')
    .filter((r) => r.trim() !== '')
    .map((r) => `delete ${r.trim()}\n`)
    .join('');
  if (input !== '') await git(repoPath, ['update-ref', '--stdin'], { input });
  return { removed: refs.length };
}
