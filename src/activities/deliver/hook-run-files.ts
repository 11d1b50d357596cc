/**
 * The files of a delivery that the user's own git runs by itself once they are on the
 * base: hooks. `merge`/`squash` delivery puts the agent's work into the user's branch
 * (and checkout), and the user's next `git commit` or `git checkout` would run a hook the
 * agent wrote, on the user's machine, with the user's credentials, without anyone having
 * chosen to run the project's code. So such a change is never merged unattended: the
 * branch is kept for a person to read (merge-into-base.ts).
 *
 * Hooks are found two ways:
 * - the directory the user's git config names as `core.hooksPath` (any scope but the
 *   harness's own `-c`), when it is inside the working tree;
 * - the files of the common hook managers, whose installed hook runs what the file says
 *   (husky's scripts, pre-commit's and lefthook's commands, a `.githooks/` directory a
 *   set-up script points git at).
 * Everything else an agent writes runs only when someone runs the project, which is the
 * trust a user gives the code itself.
 */
import { isAbsolute, relative } from 'node:path';
import { git } from '../workspace/git/git.js';

/** Hook managers' paths at the repository's root (a trailing `/`: everything under it). */
export const HOOK_MANAGER_PATHS = [
  '.husky/',
  '.githooks/',
  '.lefthook/',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yml',
  '.lefthook.yaml',
  'lefthook-local.yml',
] as const;

export type HookFilesFound =
  | { readonly kind: 'listed'; readonly files: readonly string[] }
  | { readonly kind: 'unknown'; readonly reason: string };

/** The files between `from` and `to` (commits or trees) that git or a hook manager runs as hooks. */
export async function hookFilesChanged(repoPath: string, from: string, to: string): Promise<HookFilesFound> {
  const diff = await git(repoPath, ['diff', '--name-only', '-z', '--no-renames', '--ignore-submodules=all', from, to]);
  if (diff.exitCode !== 0)
    return { kind: 'unknown', reason: diff.stderr.trim().split('\n')[0] || `git diff exited ${diff.exitCode}` };
  const prefixes = [...HOOK_MANAGER_PATHS, ...(await configuredHookDirs(repoPath))];
  const changed = diff.stdout.split('\0').filter((f) => f !== '');
  const files = changed.filter((file) => prefixes.some((p) => reaches(file, p)));
  return { kind: 'listed', files };
}

/**
 * The changed path is the hook file or directory, inside it, or a directory on the way to
 * it: a symlink committed in place of `.husky` or of `tools` (for `tools/hooks`) moves
 * every hook under it without changing a file below it.
 */
function reaches(file: string, hookPath: string): boolean {
  const path = hookPath.replace(/\/$/, '');
  return file === path || file.startsWith(`${path}/`) || path.startsWith(`${file}/`);
}

/** `core.hooksPath` of the user's config (not the harness's `-c`), as paths inside the working tree. */
async function configuredHookDirs(repoPath: string): Promise<readonly string[]> {
  const found = await git(repoPath, ['config', '--show-scope', '--get-all', 'core.hooksPath']);
  const top = await git(repoPath, ['rev-parse', '--show-toplevel']);
  const root = top.exitCode === 0 ? top.stdout.trim() : repoPath;
  return found.stdout
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(([scope, value]) => scope !== 'command' && value !== undefined && value.trim() !== '')
    .flatMap(([, value = '']) => {
      const path = isAbsolute(value) ? relative(root, value) : value;
      if (path.startsWith('..') || isAbsolute(path) || path.startsWith('~')) return [];
      const inside = path.replace(/^(\.\/)+/, '').replace(/\/*$/, '/');
      return inside === '/' || inside === './' ? [] : [inside];
    });
}
