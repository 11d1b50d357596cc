/**
 * This worker's clone of a remote repository (`<state>/repos/<repo-id>`), made on first
 * use and fetched before every run is prepared in it, so a run always starts from the
 * remote's current base. The clone's own checkout follows the remote's default branch
 * (it is ours: nobody edits it; runs work in worktrees of it) and holds the repository's
 * `.agent/` (config, local issues) as committed.
 *
 * A first clone goes to a temporary directory and is renamed into place: two processes
 * sharing a state directory never see half a clone. An unreachable URL is a clear
 * REPO_NOT_FOUND naming the URL (without credentials) and git's own reason.
 */
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AgentError } from '../../../contracts/errors.js';
import { FailureType } from '../../../contracts/failures.js';
import { withoutCredentials } from '../../../contracts/repo-url.js';
import { gitOrThrow } from '../git/git.js';
import { withRepoLock } from '../git/repo-lock.js';
import { currentBranch } from '../git/repo-queries.js';
import { repoCacheDir } from './repo-cache-layout.js';
import { gitMessage, type RemoteGit } from './remote-git.js';

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function unreachable(url: string, why: string, remote: RemoteGit): AgentError {
  return new AgentError(FailureType.RepoNotFound, remote.redact(`cannot reach ${withoutCredentials(url)}: ${why}`), {
    where: '--repo',
    expected:
      'a git URL this worker can read and push (https with a credential helper or GITHUB_TOKEN for GitHub, ssh with a key, file://)',
  });
}

async function cloneInto(remote: RemoteGit, url: string, dir: string): Promise<void> {
  await mkdir(dirname(dir), { recursive: true });
  const temp = `${dir}.clone-${process.pid}-${Date.now()}`;
  const cloned = await remote.run(dirname(dir), url, ['clone', '--quiet', '--', withoutCredentials(url), temp]);
  if (cloned.exitCode !== 0) {
    await rm(temp, { recursive: true, force: true });
    throw unreachable(url, gitMessage(cloned), remote);
  }
  try {
    await rename(temp, dir);
  } catch (err) {
    // Another process of this state directory cloned it first: use theirs.
    await rm(temp, { recursive: true, force: true });
    if (!(await exists(join(dir, '.git')))) throw err;
  }
}

/**
 * Makes sure the clone exists and is current: fetches the remote's branches (and
 * `extraRefspecs`, e.g. the run's checkpoint refs) and moves the clone's checkout to the
 * remote's tip of its branch. Returns the clone's path.
 */
export async function ensureRepoCache(
  remote: RemoteGit,
  stateDir: string,
  url: string,
  extraRefspecs: readonly string[] = [],
): Promise<string> {
  const dir = repoCacheDir(stateDir, url);
  if (!(await exists(join(dir, '.git')))) await cloneInto(remote, url, dir);
  await withRepoLock(dir, async () => {
    const fetched = await remote.run(dir, url, [
      'fetch',
      '--quiet',
      '--prune',
      'origin',
      '+refs/heads/*:refs/remotes/origin/*',
      ...extraRefspecs,
    ]);
    if (fetched.exitCode !== 0) throw unreachable(url, gitMessage(fetched), remote);
    const branch = await currentBranch(dir);
    if (branch !== undefined) {
      await gitOrThrow(
        dir,
        ['reset', '--quiet', '--hard', `refs/remotes/origin/${branch}`],
        FailureType.WorktreeFailed,
      );
    }
  });
  return dir;
}
