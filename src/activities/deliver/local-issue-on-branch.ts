/**
 * A local issue of a remote repository (`--repo URL`, issues in `.agent/issues/`):
 * the issue is a file of the repository, and the worker's clone is nobody's checkout, so
 * commenting on and closing it there (the store's state copy under the clone's git dir)
 * would change nothing anyone sees. Instead the closing comment and state go into the
 * issue file in the run's worktree and are committed on the issue branch: the branch that is pushed carries the work and the
 * issue's closing together, and merging it closes the issue in the repository.
 *
 * Idempotent: the comment has an idempotency key, closing a closed issue changes
 * nothing, and a commit is made only when the issue file changed.
 */
import type { BoundaryHookInput } from '../../contracts/activities.js';
import type { IssueSource } from '../issues/issue-source.js';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { issueLocator } from '../issues/issue-state-location.js';
import { LOCAL_ISSUES_DIR, localIssuePath } from '../issues/local-issue-store.js';
import { DEFAULT_IDENTITY } from '../tools/sandbox-env.js';
import { git } from '../workspace/git/git.js';
import { importRunRefs } from '../workspace/private-repo/import-run-refs.js';
import { already, describeError, done, failed, succeeded, type Step } from './boundary-steps.js';
import { realDirectoryInTree } from './tree-directory.js';
import { applyIssueEffects } from './issue-effects.js';

/** The steps of the issue's effects, then `issue-commit`: the closing committed on the branch. */
export async function closeLocalIssueOnBranch(
  worktreeIssues: IssueSource,
  input: BoundaryHookInput,
  delivered: string,
): Promise<Step[]> {
  // The store writes an untracked issue file in place: never through a directory the agent linked.
  const refusal = await realDirectoryInTree(input.worktreePath, LOCAL_ISSUES_DIR).then(
    () => undefined,
    (error: unknown) => describeError(error),
  );
  if (refusal !== undefined) return [failed('issue-effects', refusal, commitByHand(input))];
  const steps = (await applyIssueEffects(worktreeIssues, input, delivered)).map((step) =>
    step.effect.status === 'done'
      ? { ...step, effect: { ...step.effect, detail: `${step.effect.detail} on branch ${input.branch}` } }
      : step,
  );
  if (!steps.some(succeeded)) return steps;
  await moveStateIntoTree(input.worktreePath, input.issue);
  const issueFiles = ['--', LOCAL_ISSUES_DIR];
  const added = await git(input.worktreePath, ['add', '-A', ...issueFiles]);
  const staged = await git(input.worktreePath, ['diff', '--cached', '--quiet', ...issueFiles]);
  if (added.exitCode !== 0 || staged.exitCode > 1)
    return [...steps, failed('issue-commit', firstLine(added.stderr || staged.stderr), commitByHand(input))];
  if (staged.exitCode === 0)
    return [...steps, already('issue-commit', `the issue's closing is already committed on ${input.branch}`)];
  const message = `Close issue #${input.issue} (issue-agent)\n\nThe closing comment and state of the local issue, delivered with the work.`;
  const commit = await git(input.worktreePath, [
    ...(await identityArgs(input.worktreePath)),
    'commit',
    '--quiet',
    '--no-gpg-sign',
    '-m',
    message,
    ...issueFiles,
  ]);
  if (commit.exitCode !== 0)
    return [...steps, failed('issue-commit', firstLine(commit.stderr || commit.stdout), commitByHand(input))];
  // The commit is in the agent's own repository: into the repository that is pushed.
  await importRunRefs(input.worktreePath);
  return [
    ...steps,
    done('issue-commit', `committed the issue's closing on ${input.branch}: it lands when the branch is merged`),
  ];
}

/**
 * The store keeps a tracked issue's state in a copy under the git dir, so that a user's
 * checkout is never dirtied (issue-state-location.ts). Here the change is meant for the
 * branch: the copy becomes the issue file of the worktree, and goes (reads fall back to
 * the file, which now holds the same state).
 */
async function moveStateIntoTree(worktreePath: string, issue: number): Promise<void> {
  const locate = await issueLocator(worktreePath, LOCAL_ISSUES_DIR, (n) => localIssuePath(worktreePath, n));
  const where = await locate(issue);
  if (!where.tracked || where.readPath !== where.writePath) return;
  await replaceInTree(worktreePath, issue, await readFile(where.writePath, 'utf8'));
  await rm(where.writePath, { force: true });
}

/**
 * Written on the host, in a tree the agent wrote: the file (or a directory on its way)
 * may be a symlink to one of the worker's (`~/.bashrc`), so the text goes to a new file in
 * a real directory of the worktree, renamed over the old name (a link is replaced, never
 * followed).
 */
async function replaceInTree(worktreePath: string, issue: number, text: string): Promise<void> {
  const dir = await realDirectoryInTree(worktreePath, LOCAL_ISSUES_DIR);
  const name = `${issue}.md`;
  const temp = join(dir, `.${name}.${process.pid}.${Date.now()}.tmp`);
  await writeFile(temp, text, { encoding: 'utf8', flag: 'wx' });
  await rename(temp, join(dir, name));
}

/** The worker's git identity when it has one; else the agent's neutral one (a fresh CI machine has none). */
async function identityArgs(worktreePath: string): Promise<string[]> {
  const configured = await git(worktreePath, ['config', 'user.email']);
  if (configured.exitCode === 0 && configured.stdout.trim() !== '') return [];
  return ['-c', `user.name=${DEFAULT_IDENTITY.name}`, '-c', `user.email=${DEFAULT_IDENTITY.email}`];
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] || 'git failed';
}

function commitByHand(input: BoundaryHookInput): string {
  return `commit ${LOCAL_ISSUES_DIR} in ${input.worktreePath} on ${input.branch}, then re-run the delivery`;
}
