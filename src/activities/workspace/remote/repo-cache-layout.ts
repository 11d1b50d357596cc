/**
 * Where a worker keeps what it needs for runs on remote repositories, all under its own
 * state directory (`--state-dir`, ISSUE_AGENT_STATE_DIR, default the XDG state dir):
 * `<state>/repos/<repo-id>/` is its clone of a repository (fetched before each run),
 * whose runs' worktrees go to `<state>/worktrees/` like any checkout's; `<state>/artifacts/`
 * the runs' transcripts. Two workers on one machine with two state directories share
 * nothing, as two machines would.
 *
 * The repository's identity (`<name>-<8 hex>`, the hash of the normalised URL) is also
 * the run's RepoId and the first part of its Workflow ID: every client and worker
 * derives the same one from any spelling of the URL.
 */
import { createHash } from 'node:crypto';
import { isAbsolute, join, resolve } from 'node:path';
import { normaliseRepoUrl, repoNameOfUrl } from '../../../contracts/repo-url.js';
import { harnessStateBase } from '../sandbox-state.js';

/** Environment variable naming a worker's state directory (`--state-dir`). */
export const STATE_DIR_ENV = 'ISSUE_AGENT_STATE_DIR';

/** `$ISSUE_AGENT_STATE_DIR`, else `$XDG_STATE_HOME/issue-agent`, else `~/.local/state/issue-agent`. */
export function stateDirFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): string {
  // One rule for every state this worker keeps (sandbox state, definition snapshots, clones).
  return resolve(harnessStateBase(env));
}

function slug(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 40);
  return s === '' ? 'repo' : s;
}

/** `<name>-<8 hex>` of a repository URL: safe in a Workflow ID, a search attribute and a path. */
export function remoteRepoId(url: string): string {
  const hash = createHash('sha256').update(normaliseRepoUrl(url)).digest('hex').slice(0, 8);
  return `${slug(repoNameOfUrl(url))}-${hash}`;
}

/** `<state>/repos/<repo-id>`: this worker's clone of the repository. */
export function repoCacheDir(stateDir: string, url: string): string {
  return join(stateDir, 'repos', remoteRepoId(url));
}

/** True for a path inside this worker's clones (a remote run's worktree lives there). */
export function isInRepoCache(stateDir: string, path: string): boolean {
  const root = join(stateDir, 'repos') + '/';
  return path.startsWith(root);
}

/** A run's artifacts dir as the client gives it for a remote run (relative), made absolute on this worker. */
export function hostArtifactsDir(stateDir: string, artifactsDir: string): string {
  return isAbsolute(artifactsDir) ? artifactsDir : join(stateDir, artifactsDir);
}
