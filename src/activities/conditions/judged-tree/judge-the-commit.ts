/**
 * Validators run in the agent's worktree, but what they vouch for is the commit the branch
 * delivers. Before any of them runs, the worktree is brought as close to that commit as
 * the agent's tools can tell: an index that hides no change (fresh-index.ts), no ignored
 * file the agent's commands wrote since the harness last ran (set-aside-ignored.ts), no
 * tracked file whose mtime was set back (backdated-sources.ts). Then the clean-tree check
 * sees every uncommitted change, and the tests run on the commit plus what setup and the
 * harness's own commands made. The stamp is written again after the validators ran
 * (`markTrusted`), so their own outputs are kept for the next closure.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { readEnvironmentReport } from '../../environment/environment-file.js';
import { buildOutputPaths } from '../../tools/validator-view.js';
import { freshenBackdated } from './backdated-sources.js';
import type { HeadMoved } from './head-on-branch.js';
import type { JudgedBranch } from './held-branch.js';
import { pinTheCommit } from './pin-the-commit.js';
import { setAsideIgnored } from './set-aside-ignored.js';
import { trustedUntil } from './trusted-stamp.js';

export { markTrusted } from './trusted-stamp.js';

export interface JudgedTree {
  /** Where HEAD was when it was not on the run's branch, and that branch (head-on-branch.ts). */
  readonly headMoved?: HeadMoved;
  /** The run's branch and the commit judged, to see that no validator moves it (held-branch.ts). */
  readonly branch?: JudgedBranch;
  /** Paths whose index bits hid them from `git status` until now. */
  readonly unhidden: readonly string[];
  /** Ignored files the agent's commands wrote, moved to `setAsideDir`. */
  readonly setAside: readonly string[];
  readonly setAsideDir?: string;
  /** Tracked files whose mtime was set back, given the current time. */
  readonly freshened: readonly string[];
}

export async function judgeTheCommit(worktreePath: string): Promise<JudgedTree> {
  const { index, ...moved } = await pinTheCommit(worktreePath);
  const unhidden = index?.hidden ?? [];
  const since = trustedUntil(worktreePath);
  if (since === undefined) return { ...moved, unhidden, setAside: [], freshened: [] };
  const aside = await setAsideIgnored(worktreePath, since, notWalked(worktreePath));
  const freshened = await freshenBackdated(worktreePath, since, index?.tracked ?? []);
  return {
    ...moved,
    unhidden,
    setAside: aside?.paths ?? [],
    ...(aside && aside.paths.length > 0 ? { setAsideDir: aside.dir } : {}),
    freshened,
  };
}

/** Worktree-relative directories the set-aside never walks (see set-aside-ignored.ts). */
function notWalked(worktreePath: string): Set<string> {
  const installed = readEnvironmentReport(worktreePath)?.sandbox.installed;
  const absolute = [...(installed?.readOnly ?? []), ...(installed?.writable ?? [])];
  const inside = absolute.map((dir) => path.relative(worktreePath, dir));
  const skipped = new Set(inside.filter((rel) => rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)));
  for (const rel of buildOutputPaths(worktreePath)) skipped.add(rel);
  if (existsSync(path.join(worktreePath, 'Cargo.toml'))) skipped.add('target');
  return skipped;
}
