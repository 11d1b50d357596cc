/**
 * What the issue branch holds against its base, read with the harness git runner: the
 * commits on HEAD that the base lacks, and whether HEAD's tree differs from the base's.
 * Trees are compared by id, so commits that net to no change (an edit and its revert)
 * count as no change, and no diff driver, textconv or submodule setting can hide one.
 * Uncommitted files are not the branch's: the `git-clean` condition judges them.
 */
import { git, type GitResult } from '../../workspace/git/git.js';

export interface BranchDiff {
  /** The base commit (the merge-base of HEAD and the branch the issue branch was cut from). */
  readonly base: string;
  /** Commits on HEAD that are not on the base. */
  readonly commits: number;
  /** True when HEAD's tree is the base's tree. */
  readonly sameTree: boolean;
  /** Paths that differ (only read when the trees differ; empty when only a submodule pointer moved). */
  readonly files: readonly string[];
}

export type BranchDiffRead =
  { readonly ok: true; readonly diff: BranchDiff } | { readonly ok: false; readonly error: string };

/** Pinned so repository config (renames, external diff, quoting) cannot change what is listed. */
const NAME_ONLY_ARGS: readonly string[] = [
  '-c',
  'core.quotePath=false',
  'diff',
  '--name-only',
  '--no-renames',
  '--no-ext-diff',
  '--no-textconv',
  '--no-relative',
];

const firstLine = (r: GitResult): string => r.stderr.trim().split('\n')[0] ?? '';

export async function readBranchDiff(worktreePath: string, base: string): Promise<BranchDiffRead> {
  const count = await git(worktreePath, ['rev-list', '--count', `${base}..HEAD`]);
  if (count.exitCode !== 0)
    return { ok: false, error: `git rev-list ${base.slice(0, 12)}..HEAD failed: ${firstLine(count)}` };
  const commits = Number.parseInt(count.stdout.trim(), 10);
  if (!Number.isFinite(commits))
    return { ok: false, error: `git rev-list printed ${JSON.stringify(count.stdout.trim())}` };
  if (commits === 0) return { ok: true, diff: { base, commits, sameTree: true, files: [] } };

  const trees = await git(worktreePath, ['rev-parse', `${base}^{tree}`, 'HEAD^{tree}']);
  const [baseTree, headTree] = trees.stdout.trim().split('\n');
  if (trees.exitCode !== 0 || baseTree === undefined || headTree === undefined)
    return { ok: false, error: `git rev-parse of the trees failed: ${firstLine(trees)}` };
  if (baseTree === headTree) return { ok: true, diff: { base, commits, sameTree: true, files: [] } };

  const names = await git(worktreePath, [...NAME_ONLY_ARGS, base, 'HEAD', '--']);
  if (names.exitCode !== 0) return { ok: false, error: `git diff --name-only failed: ${firstLine(names)}` };
  const files = names.stdout.split('\n').filter((line) => line !== '');
  return { ok: true, diff: { base, commits, sameTree: false, files } };
}
