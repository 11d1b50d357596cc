/**
 * Build tools decide what to rebuild by modification times, which the agent sets. A test
 * made to pass trivially, compiled by one closure's validators, then changed back with
 * its old mtime (`touch -d`), would look older than that compiled output, and the next
 * closure would run the trivial test again. The change time cannot be set back: a tracked
 * file changed since the trusted stamp whose mtime says it was not is given the current
 * time, so every tool rebuilds from it. Only tracked files: build outputs are untracked
 * or ignored, and making an output as new as its sources would make the tools keep it.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { utimes } from 'node:fs/promises';
import path from 'node:path';

/**
 * Freshens the tracked files (`tracked`: the index's paths, as pin-the-commit.ts listed
 * them) back-dated since `since`; returns their worktree-relative paths.
 */
export async function freshenBackdated(
  worktreePath: string,
  since: bigint,
  tracked: readonly string[],
): Promise<string[]> {
  const freshened: string[] = [];
  const now = new Date();
  for (const rel of new Set(tracked)) {
    const file = path.join(worktreePath, rel);
    let info;
    try {
      info = lstatSync(file, { bigint: true });
    } catch {
      continue;
    }
    if (!info.isFile() || info.ctimeNs <= since || info.mtimeNs >= since) continue;
    // An index can name `link/file` under a symlink the agent made: only files really in the worktree.
    if (!insideWorktree(worktreePath, file)) continue;
    await utimes(file, now, now);
    freshened.push(rel);
  }
  return freshened;
}

function insideWorktree(worktreePath: string, file: string): boolean {
  try {
    const root = realpathSync(worktreePath);
    const dir = realpathSync(path.dirname(file));
    return dir === root || dir.startsWith(root + path.sep);
  } catch {
    return false;
  }
}
