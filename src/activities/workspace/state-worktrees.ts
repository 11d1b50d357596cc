/**
 * The default worktrees in the worker's state dir (worktree-layout.ts), kept apart from
 * their repositories: what ties one to its repository is its `.git` file, naming the
 * admin dir in the repository's git dir (`gitdir: <git-dir>/worktrees/<name>`).
 *
 * - A worktree whose admin dir is gone is dead: git cannot work in it any more (its
 *   repository was deleted or cloned afresh at the same path). Its directory in the state
 *   dir would stay forever and block the next run of that issue, so run starts sweep them,
 *   and a run that meets one where its worktree goes removes it.
 *   The run's commits and checkpoints lived in that repository; nothing of the run is in
 *   the directory alone but files nobody can commit.
 * - A live worktree at the old default path (`<git-dir>/agent/worktrees/issue-<n>`, made by
 *   an earlier version) is used where it is, so a run begun before an upgrade resumes.
 */
import { readFileSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { harnessStateBase } from './sandbox-state.js';
import { worktreesStateRoot } from './worktree-layout.js';

/** When each state dir was last swept by this process (ms since epoch). */
const lastSweeps = new Map<string, number>();
const SWEEP_INTERVAL_MS = 60_000;

/** At a run start: sweeps dead worktrees unless this process swept the same state dir within the last minute. */
export async function sweepDeadWorktreesOccasionally(
  stateDir: string = harnessStateBase(),
  now = Date.now(),
): Promise<string[]> {
  const root = worktreesStateRoot(stateDir);
  const last = lastSweeps.get(root);
  if (last !== undefined && now - last < SWEEP_INTERVAL_MS) return [];
  lastSweeps.set(root, now);
  return sweepDeadWorktrees(stateDir);
}

/** Removes every worktree in the state dir whose `.git` file names an admin dir that is gone; returns them. */
export async function sweepDeadWorktrees(stateDir: string = harnessStateBase()): Promise<string[]> {
  const root = worktreesStateRoot(stateDir);
  const removed: string[] = [];
  for (const repository of await entries(root)) {
    const dir = path.join(root, repository);
    const left = await entries(dir);
    for (const name of left) {
      const worktree = path.join(dir, name);
      if (!(await isDeadWorktree(worktree))) continue;
      await rm(worktree, { recursive: true, force: true });
      removed.push(worktree);
    }
    if (left.length > 0 && (await entries(dir)).length === 0) await rm(dir, { recursive: true, force: true });
  }
  return removed;
}

/**
 * Dead: a `.git` file naming an absolute admin dir that does not exist. A directory with no
 * `.git` file (a worktree being made right now) or any other `.git` is left alone.
 */
export async function isDeadWorktree(worktree: string): Promise<boolean> {
  const gitDir = worktreeAdminDir(worktree);
  if (gitDir === undefined || !path.isAbsolute(gitDir)) return false;
  return stat(gitDir).then(
    () => false,
    (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
  );
}

/** The admin dir a linked worktree's `.git` file names (`gitdir: …`), or undefined. */
export function worktreeAdminDir(worktree: string): string | undefined {
  try {
    return /^gitdir: (.+)$/m.exec(readFileSync(path.join(worktree, '.git'), 'utf8'))?.[1]?.trim();
  } catch {
    return undefined;
  }
}

async function entries(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => [] as string[]);
}
