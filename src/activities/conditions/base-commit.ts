/**
 * The commit a run's work is judged against: the merge-base of HEAD and the branch the
 * issue branch was cut from (recorded by prepareWorkspace as `branch.<b>.agentBase`),
 * or an explicit commit/branch. Shared by the test-integrity guard (diff against it)
 * and baseline-aware test failures (tests run on it).
 */
import { git } from '../workspace/git/git.js';

/** The base commit id, or undefined when nothing is recorded and nothing was given. */
export async function baseCommit(worktreePath: string, explicit?: string): Promise<string | undefined> {
  const baseRef = explicit ?? (await recordedBase(worktreePath));
  if (baseRef === undefined) return undefined;
  const mergeBase = await git(worktreePath, ['merge-base', 'HEAD', `${baseRef}^{commit}`]);
  if (mergeBase.exitCode === 0 && mergeBase.stdout.trim() !== '') return mergeBase.stdout.trim();
  const resolved = await git(worktreePath, ['rev-parse', '--verify', '--quiet', `${baseRef}^{commit}`]);
  return resolved.exitCode === 0 ? resolved.stdout.trim() : undefined;
}

async function recordedBase(worktreePath: string): Promise<string | undefined> {
  const branch = await git(worktreePath, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  if (branch.exitCode !== 0) return undefined;
  const recorded = await git(worktreePath, ['config', '--get', `branch.${branch.stdout.trim()}.agentBase`]);
  return recorded.exitCode === 0 && recorded.stdout.trim() !== '' ? recorded.stdout.trim() : undefined;
}

/** HEAD is `commit` and no tracked file differs from it: the worktree holds no work yet. */
export async function worktreeAtCommit(worktreePath: string, commit: string): Promise<boolean> {
  const head = await git(worktreePath, ['rev-parse', 'HEAD']);
  const changed = await git(worktreePath, ['status', '--porcelain', '--untracked-files=no']);
  return head.exitCode === 0 && head.stdout.trim() === commit && changed.exitCode === 0 && changed.stdout.trim() === '';
}
