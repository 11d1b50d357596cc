/**
 * The index the clean-tree check reads is the agent's to write (its admin dir is
 * writable in its sandbox). Three ways to make `git status` say "clean" while the
 * worktree is not what the branch holds:
 * - `git update-index --skip-worktree f` or `--assume-unchanged f`: git stops looking
 *   at `f`, so a fix left uncommitted passes the tests and the branch keeps the bug;
 * - an index entry whose cached stat data matches the changed file: git trusts the stat
 *   and never reads the content.
 *
 * So before any validator judges the tree, the index is rebuilt from what it stages: the
 * same tree (`write-tree`, then `read-tree` of it), with no flag and no stat data, so the
 * next `git status` compares every file's content. What the agent staged stays staged;
 * an index git cannot write as a tree (a conflict) is replaced by HEAD's, which leaves
 * every difference visible as unstaged. It runs in the same harness git call as HEAD's
 * check (pin-the-commit.ts).
 */

/** The marker line after which the script prints `git ls-files -v -z` (the flags before the rebuild). */
export const INDEX_MARKER = 'index';

/** Exits 5 when the index cannot be listed, 6 when it cannot be read back. */
export const FRESH_INDEX_SCRIPT = `
printf '%s\\n' '${INDEX_MARKER}'
git ls-files -v -z || exit 5
tree=$(git write-tree 2>/dev/null) || tree=HEAD
git read-tree "$tree" || exit 6
`;

export interface IndexPaths {
  /** Every path the index names. */
  readonly tracked: string[];
  /** Those `git ls-files -v` tags as skip-worktree (`S`) or assume-unchanged (a lowercase tag). */
  readonly hidden: string[];
}

/** `git ls-files -v -z`, read. PURE. */
export function readIndexListing(output: string): IndexPaths {
  const tracked: string[] = [];
  const hidden: string[] = [];
  for (const field of output.split('\0')) {
    if (field.length < 3) continue;
    const tag = field[0]!;
    tracked.push(field.slice(2));
    if (tag === 'S' || /^[a-z]$/.test(tag)) hidden.push(field.slice(2));
  }
  return { tracked, hidden };
}
