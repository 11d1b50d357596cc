/**
 * What setup leaves in the worktree that git would show. A repository that does not ignore
 * `node_modules/` (no `.gitignore` at all, its tests needing no dependency) gets yarn's
 * `node_modules/.yarn-integrity` or a whole `node_modules/` as untracked files; an editable
 * Python install leaves `*.egg-info/`. Harness git stages the whole worktree for the run's
 * commits, so these reached the delivered branch ("changing 2 file(s):
 * node_modules/.yarn-integrity, src/str.js"), work nobody asked for.
 *
 * So the files setup *created* (untracked before it ran, there after) are written into the
 * run's own repository's `info/exclude` (private-repo: a copy of the user's, in sandbox
 * state the agent cannot reach): to every git of the run they are ignored, as if the
 * repository ignored them itself. The user's repository is not touched. What the agent
 * later writes under them is an ignored file, set aside before the checks as any other
 * (judged-tree/set-aside-ignored.ts); installed dependencies are read-only to it anyway.
 *
 * Not for a setup the agent wrote: its commands are the agent's, and what they create
 * must stay in the diff the checks read. Tracked files setup changed (a rewritten
 * lockfile) cannot be ignored: they stay a warning, with the fix.
 */
import { git } from '../workspace/git/git.js';
import { privateRepoOf } from '../workspace/private-repo/private-repo-layout.js';
import { appendPrivateExcludes } from '../workspace/ensure-excluded.js';

/** Untracked entries as `git status` lists them (a new directory is one `dir/` entry). */
export async function untrackedEntries(worktreePath: string): Promise<ReadonlySet<string>> {
  const status = await git(worktreePath, ['status', '--porcelain', '-z', '--untracked-files=normal']);
  if (status.exitCode !== 0) return new Set();
  return new Set(
    status.stdout
      .split('\0')
      .filter((entry) => entry.startsWith('?? '))
      .map((entry) => entry.slice(3)),
  );
}

/**
 * Ignores, for the run's own repository, the entries untracked now that were not before
 * setup. Returns them (empty when there is no private repository: nothing is written).
 */
export async function excludeSetupLeftovers(worktreePath: string, before: ReadonlySet<string>): Promise<string[]> {
  if (privateRepoOf(worktreePath) === undefined) return [];
  const created = [...(await untrackedEntries(worktreePath))].filter(
    (entry) => !before.has(entry) && !/[\n\r]/.test(entry),
  );
  const lines = created.map((entry) => `/${escapeIgnorePattern(entry)}`);
  return (await appendPrivateExcludes(worktreePath, lines, "left by the issue agent's setup of this worktree"))
    ? created
    : [];
}

/** A literal path as a gitignore pattern: glob characters and trailing spaces escaped. */
function escapeIgnorePattern(entry: string): string {
  return entry.replace(/[\\*?[\]]/g, '\\$&').replace(/ +$/, (spaces) => spaces.replace(/ /g, '\\ '));
}

/**
 * The report's warnings about setup's leftovers: those kept out of the run's commits
 * (named, so the user can add them to `.gitignore`), and what git still shows.
 */
export async function setupLeftovers(
  worktreePath: string,
  keptOut: readonly string[],
  buildOutputs: readonly string[] = [],
): Promise<string[]> {
  const warnings: string[] = [];
  if (buildOutputs.length > 0)
    warnings.push(
      `your repository does not ignore what its build and test tools write (${buildOutputs.join(', ')}): kept out of the run's commits; add it to .gitignore`,
    );
  if (keptOut.length > 0)
    warnings.push(
      `setup left ${keptOut.length} untracked path(s) your repository does not ignore (${listed(keptOut)}): kept out of the run's commits; add them to .gitignore`,
    );
  const status = await git(worktreePath, ['status', '--porcelain', '--untracked-files=normal']);
  if (status.exitCode !== 0) return warnings;
  const paths = status.stdout
    .split('\n')
    .map((l) => l.slice(3).trim())
    .filter(Boolean);
  if (paths.length > 0)
    warnings.push(
      `setup left ${paths.length} change(s) git shows in the worktree (${listed(paths)}): add them to .gitignore, or the clean-tree check will see them`,
    );
  return warnings;
}

function listed(paths: readonly string[]): string {
  return paths.slice(0, 5).join(', ') + (paths.length > 5 ? ` and ${paths.length - 5} more` : '');
}
