/**
 * HEAD back on the run's branch (head-on-branch.ts) and the index rebuilt from what it
 * stages (fresh-index.ts), in one harness git call: in an agent's worktree every call is
 * a sandbox launch (~80 ms), and these were five or six of them at every closure.
 */
import { gitScript } from '../../workspace/git/git.js';
import { recordedRunBranch } from '../../workspace/run-refs.js';
import { FRESH_INDEX_SCRIPT, INDEX_MARKER, readIndexListing, type IndexPaths } from './fresh-index.js';
import { branchGone, HEAD_ON_BRANCH_SCRIPT, headMovedOf, readHeadLines, type HeadMoved } from './head-on-branch.js';
import type { JudgedBranch } from './held-branch.js';

export interface PinnedCommit {
  /** Where HEAD was when it was not on the run's branch. */
  readonly headMoved?: HeadMoved;
  /** The run's branch and its commit; absent for a worktree made outside a run. */
  readonly branch?: JudgedBranch;
  /** The index's paths, and those whose bits hid them from `git status`; undefined when it was not rebuilt. */
  readonly index?: IndexPaths;
}

const BRANCH_GONE = 4;

export async function pinTheCommit(worktreePath: string): Promise<PinnedCommit> {
  const branch = recordedRunBranch(worktreePath);
  const ran = await gitScript(worktreePath, `${HEAD_ON_BRANCH_SCRIPT}\n${FRESH_INDEX_SCRIPT}`, [branch ?? '']);
  const marker = ran.stdout.indexOf(`\n${INDEX_MARKER}\n`);
  const headPart = marker === -1 ? ran.stdout : ran.stdout.slice(0, marker);
  const head = readHeadLines(headPart.split('\n'));
  if (branch !== undefined && ran.exitCode === BRANCH_GONE) throw branchGone(branch, head.at);
  const headMoved = branch === undefined ? undefined : headMovedOf(branch, head);
  return {
    ...(headMoved === undefined ? {} : { headMoved }),
    ...(branch === undefined ? {} : { branch: { branch, commit: head.commit } }),
    ...(ran.exitCode === 0 && marker !== -1
      ? { index: readIndexListing(ran.stdout.slice(marker + INDEX_MARKER.length + 2)) }
      : {}),
  };
}
