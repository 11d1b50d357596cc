/**
 * Setup runs the repository's own code (install scripts, setup.py, build.rs) with the
 * network and the shared package caches writable (in the sandbox), which is meant for the
 * code at the base, as a user's own `npm ci` is. When the caller names the base commit,
 * the worktree must still be exactly there (HEAD at it, no tracked file changed): a setup
 * asked for after the agent has written code is refused instead of running that code
 * with the network and the caches.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { git } from '../workspace/git/git.js';
import { resolveCommit } from '../workspace/git/repo-queries.js';
import { FULL_COMMIT_ID, worktreeState } from '../conditions/base-commit.js';

export async function assertAtBaseCommit(worktreePath: string, baseCommit: string): Promise<void> {
  // One status for HEAD and the tracked files; a full commit id is compared as it is,
  // anything else is resolved first (and must name a commit).
  const state = await worktreeState(worktreePath);
  const base = FULL_COMMIT_ID.test(baseCommit) ? baseCommit : await resolveCommit(worktreePath, baseCommit);
  const at = state.head !== undefined && state.head === base;
  if (at && state.clean) return;
  const why = !at
    ? `HEAD ${state.head?.slice(0, 12) ?? '(none)'} is not the base commit ${baseCommit.slice(0, 12)}`
    : `tracked files changed: ${(await changedTrackedFiles(worktreePath)).slice(0, 5).join(', ')}`;
  throw new AgentError(
    FailureType.EnvironmentFailed,
    `environment setup refused in ${worktreePath}: ${why}; setup runs only the repository's committed code at the base commit`,
    { where: worktreePath, expected: `a clean worktree at ${baseCommit}` },
  );
}

async function changedTrackedFiles(worktreePath: string): Promise<string[]> {
  const changed = await git(worktreePath, ['status', '--porcelain', '--untracked-files=no']);
  return changed.stdout.trim().split('\n').filter(Boolean);
}
