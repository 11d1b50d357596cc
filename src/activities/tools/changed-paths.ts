/**
 * The tool layer's own record of what a step's tools may have changed in the worktree:
 * the paths the editor wrote, or "unknown" once any bash command ran (a shell can touch
 * anything). The step's checkpoint reads it to stage only those paths instead of
 * scanning the whole worktree (issue 29: on a 100 000-file repository a full scan is
 * git's floor, paid once per step). Unknown is always the safe answer.
 */

export interface ChangedPaths {
  /** A path (relative to the worktree) a tool wrote. */
  add(relative: string): void;
  /** Something may have changed that the record cannot name (bash ran, a step resumed). */
  markUnknown(): void;
  /** The paths written, in first-write order; undefined when unknown. */
  list(): readonly string[] | undefined;
}

export function createChangedPaths(): ChangedPaths {
  const paths = new Set<string>();
  let unknown = false;
  return {
    add(relative) {
      // A path outside the worktree or the worktree itself cannot be staged by name.
      if (relative === '' || relative.startsWith('..') || relative.startsWith('/')) unknown = true;
      else paths.add(relative);
    },
    markUnknown() {
      unknown = true;
    },
    list() {
      return unknown ? undefined : [...paths];
    },
  };
}
