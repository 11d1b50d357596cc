/**
 * `merge` / `squash` delivery: put the issue branch into the base branch without ever
 * leaving the user's checkout mid-merge. The merge is computed without a work tree
 * (`git merge-tree --write-tree`, then `git commit-tree`), so no MERGE_HEAD, index or
 * file of anyone's checkout changes while it is made. Only then does the base move:
 * - base checked out somewhere (the user's checkout): only when that checkout is clean,
 *   by `git merge --ff-only` to the new commit (git updates files and ref together and
 *   refuses to overwrite anything); a dirty checkout is refused, untouched;
 * - base checked out nowhere: `git update-ref <ref> <new> <old>`, an atomic
 *   compare-and-swap.
 * A change to what the user's git runs as hooks is never merged unattended (hook-run-files.ts).
 * A crash at any point leaves the base either untouched or fully moved (at worst an
 * unreferenced commit object), and a re-run finds the delivery (branch contained in
 * the base, or the squash commit's trailer) and reports it as already done.
 */
import type { DeliveryMode } from '../../contracts/delivery.js';
import { git } from '../workspace/git/git.js';
import { isAncestor, listWorktrees, resolveCommit, statusLines } from '../workspace/git/repo-queries.js';
import { already, done, failed, skipped, type Step } from './boundary-steps.js';
import { hookFilesChanged } from './hook-run-files.js';

export interface IntoBaseRequest {
  readonly repoPath: string;
  readonly branch: string;
  readonly baseBranch: string;
  readonly issue: number;
  readonly strategy: Extract<DeliveryMode, 'merge' | 'squash'>;
}

/** Trailer of a squash commit naming the branch head it squashed: how a re-run recognises it. */
export const SQUASH_TRAILER = 'Issue-Agent-Squash-Of';
/** Attempts when someone else moves the base between computing and moving. */
const ATTEMPTS = 3;

export function manualMerge(request: Pick<IntoBaseRequest, 'repoPath' | 'branch' | 'baseBranch' | 'strategy'>): string {
  const how =
    request.strategy === 'squash'
      ? `git merge --squash ${request.branch} && git commit`
      : `git merge --no-ff ${request.branch}`;
  return `in ${request.repoPath}: git checkout ${request.baseBranch} && ${how}`;
}

/** True when the branch's current head is already in the base (merged, or squashed by us). */
export async function deliveredIntoBase(request: IntoBaseRequest, branchSha: string): Promise<boolean> {
  const { repoPath, baseBranch } = request;
  if (await isAncestor(repoPath, branchSha, `refs/heads/${baseBranch}`)) return true;
  if (request.strategy !== 'squash') return false;
  const found = await git(repoPath, [
    'log',
    '-n1',
    '--format=%H',
    '-F',
    `--grep=${SQUASH_TRAILER}: ${branchSha}`,
    `refs/heads/${baseBranch}`,
  ]);
  return found.exitCode === 0 && found.stdout.trim() !== '';
}

export async function mergeIntoBase(request: IntoBaseRequest): Promise<Step> {
  const { repoPath, branch, baseBranch, strategy } = request;
  const name = strategy;
  const manual = manualMerge(request);
  const branchSha = await resolveCommit(repoPath, `refs/heads/${branch}`);
  // The branch is deleted only after its delivery, so a missing branch was delivered before.
  if (branchSha === undefined)
    return already(name, `branch ${branch} no longer exists (delivered and deleted earlier)`);
  if (await deliveredIntoBase(request, branchSha))
    return already(name, `${branch} (${short(branchSha)}) is already in ${baseBranch}`);

  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const old = await resolveCommit(repoPath, `refs/heads/${baseBranch}`);
    if (old === undefined)
      return failed(name, `the base branch ${baseBranch} does not exist`, `create ${baseBranch}, then ${manual}`);
    const checkout = (await listWorktrees(repoPath)).find((w) => w.branch === baseBranch && !w.prunable);
    if (checkout) {
      const changed = await statusLines(checkout.path, { includeUntracked: false });
      if (changed.length > 0)
        return skipped(
          name,
          `${checkout.path} has ${baseBranch} checked out with ${changed.length} uncommitted change(s) to tracked files (${changed[0]?.trim()}); refused to touch it, ${baseBranch} is unchanged`,
          `commit or stash your changes, then ${manual}`,
        );
    }
    const tree = await git(repoPath, ['merge-tree', '--write-tree', '--name-only', '--no-messages', old, branchSha]);
    const [treeId, ...conflicts] = tree.stdout.split('\n').filter((l) => l.trim() !== '');
    if (tree.exitCode !== 0 || treeId === undefined) {
      const why =
        tree.exitCode === 1
          ? `conflict in ${conflicts.slice(0, 5).join(', ') || 'some files'}`
          : /usage|unknown option/i.test(tree.stderr)
            ? 'merge and squash delivery need git 2.38 or newer (git merge-tree --write-tree)'
            : tree.stderr.trim().split('\n')[0] || `exit ${tree.exitCode}`;
      return failed(
        name,
        `merging ${branch} into ${baseBranch} failed: ${why}; ${baseBranch} is unchanged`,
        `resolve the conflict and merge ${manual}`,
      );
    }
    const hooks = await hookFilesChanged(repoPath, old, treeId);
    if (hooks.kind === 'unknown')
      return failed(
        name,
        `could not list what the merge changes (${hooks.reason}); ${baseBranch} is unchanged`,
        manual,
      );
    if (hooks.files.length > 0) {
      const listed = hooks.files.slice(0, 5).join(', ');
      return skipped(
        name,
        `${branch} changes what your git runs by itself as hooks (${listed}): not merged unattended; ${baseBranch} is unchanged`,
        `read ${listed} on ${branch}, then ${manual}`,
      );
    }
    const parents = strategy === 'merge' ? ['-p', old, '-p', branchSha] : ['-p', old];
    const commit = await git(repoPath, ['commit-tree', treeId, ...parents, '-m', message(request, branchSha)]);
    const newSha = commit.stdout.trim();
    if (commit.exitCode !== 0 || newSha === '')
      return failed(
        name,
        `git commit-tree failed: ${commit.stderr.trim().split('\n')[0] ?? ''}; ${baseBranch} is unchanged`,
        manual,
      );

    const moved = checkout
      ? await git(checkout.path, ['merge', '--ff-only', '--no-autostash', '--quiet', newSha])
      : await git(repoPath, [
          'update-ref',
          '-m',
          `issue-agent: ${strategy} ${branch}`,
          `refs/heads/${baseBranch}`,
          newSha,
          old,
        ]);
    if (moved.exitCode === 0) {
      const what = strategy === 'merge' ? 'merged' : 'squashed';
      const where = checkout ? ` (fast-forwarded the checkout ${checkout.path})` : '';
      return done(name, `${what} ${branch} into ${baseBranch} as ${short(newSha)}${where}`);
    }
    // The base moved under us (a commit by the user, another run): compute again.
    if ((await resolveCommit(repoPath, `refs/heads/${baseBranch}`)) !== old) continue;
    return failed(
      name,
      `moving ${baseBranch} to ${short(newSha)} failed: ${(moved.stderr || moved.stdout).trim().split('\n')[0] ?? ''}; ${baseBranch} is unchanged`,
      `${checkout ? `clean ${checkout.path}, then ` : ''}${manual}`,
    );
  }
  return failed(name, `${baseBranch} kept moving while delivering ${branch}`, `re-run the delivery, or ${manual}`);
}

function message(request: IntoBaseRequest, branchSha: string): string {
  const { branch, issue } = request;
  return request.strategy === 'merge'
    ? `Merge branch '${branch}' (issue #${issue})`
    : `Squash branch '${branch}' (issue #${issue})\n\n${SQUASH_TRAILER}: ${branchSha}`;
}

const short = (sha: string): string => sha.slice(0, 12);
