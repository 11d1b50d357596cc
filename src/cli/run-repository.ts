/**
 * What `--repo` names for a run: a checkout (a path, the default the current directory)
 * or a remote repository (a git URL: https, ssh, `file://`). For a URL the client
 * clones it into its own state dir to read what the run needs before it starts (the
 * issue, `.agent/config.json`, AGENTS.md, the repository's agents), and the run itself
 * gets the URL without credentials: each worker clones it for itself and delivers by
 * pushing. Credentials written into the URL are dropped here, said so in one line, and
 * never reach history, logs or errors: workers use their own git credentials.
 */
import { repoIdentity, workflowIdFor } from '../host/repo-identity.js';
import { artifactsDirOf } from '../host/state-paths.js';
import { hasCredentials, isRepoUrl, withoutCredentials } from '../contracts/repo-url.js';
import { createRemoteGit } from '../activities/workspace/remote/remote-git.js';
import { ensureRepoCache } from '../activities/workspace/remote/repo-cache.js';
import { remoteRepoId, stateDirFromEnv } from '../activities/workspace/remote/repo-cache-layout.js';
import { checkRepository, resolveUserPath, userCwd } from './run-target.js';

export { workflowIdFor };

export interface RunRepository {
  /** What the run's input carries: the checkout's absolute path, or the URL without credentials. */
  readonly repoPath: string;
  /** Where this process reads the repository: the checkout, or this client's clone. */
  readonly localPath: string;
  /** RepoId: the first part of the Workflow ID and the search attribute. */
  readonly id: string;
  /** The run's artifacts dir as the run gets it (relative for a URL: under each worker's state dir). */
  readonly artifactsDir: string;
  readonly remote: boolean;
  /** Said once to the user (credentials dropped). */
  readonly notes: readonly string[];
}

/** `--repo` as a path or a URL; a URL is cloned or fetched only when `clone` (start commands). */
export async function runRepository(raw: string | undefined, options: { clone: boolean }): Promise<RunRepository> {
  if (raw !== undefined && isRepoUrl(raw)) {
    const url = withoutCredentials(raw);
    const notes = hasCredentials(raw)
      ? [`note: the credentials in --repo were dropped (${url}); workers authenticate with their own git credentials`]
      : [];
    const id = remoteRepoId(url);
    const localPath = options.clone ? await ensureRepoCache(createRemoteGit(process.env), stateDirFromEnv(), url) : url;
    return { repoPath: url, localPath, id, artifactsDir: `artifacts/${id}`, remote: true, notes };
  }
  const repoPath = await checkRepository(resolveUserPath(raw ?? userCwd()), raw !== undefined, {
    needsCommit: options.clone,
  });
  const identity = await repoIdentity(repoPath);
  return {
    repoPath,
    localPath: repoPath,
    id: identity.id,
    artifactsDir: artifactsDirOf(identity.commonDir),
    remote: false,
    notes: [],
  };
}
