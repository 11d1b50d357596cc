/**
 * The files of a delivery that the user's own git runs by itself once they are on the
 * base: hooks. `merge`/`squash` delivery puts the agent's work into the user's branch
 * (and checkout), and the user's next `git commit` or `git checkout` would run a hook the
 * agent wrote, on the user's machine, with the user's credentials, without anyone having
 * chosen to run the project's code. So such a change is never merged unattended: the
 * branch is kept for a person to read (merge-into-base.ts).
 *
 * Hooks are found two ways:
 * - what the user's git config (any scope but the harness's own `-c`) points into the
 *   working tree: the `core.hooksPath` directory, and config files it includes;
 * - the files of the common hook managers, whose installed hook runs what the file says
 *   (husky's scripts, pre-commit's, lefthook's, overcommit's and lint-staged's commands, a
 *   `.githooks/` directory a set-up script points git at), and the package.json keys such
 *   a hook reads (`lint-staged`, husky 4's `husky`).
 * Everything else an agent writes runs only when someone runs the project, which is the
 * trust a user gives the code itself.
 */
import { dirname, relative, resolve, sep } from 'node:path';
import { isStrictlyInside } from '../../definition/load/path-inside.js';
import { git } from '../workspace/git/git.js';
import { isJsonObject, type JsonObject } from '../../contracts/json.js';

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
  '.overcommit.yml',
  // lint-staged: run by a husky (or other) pre-commit hook, with the commands these name.
  '.lintstagedrc',
  '.lintstagedrc.json',
  '.lintstagedrc.yaml',
  '.lintstagedrc.yml',
  '.lintstagedrc.js',
  '.lintstagedrc.cjs',
  '.lintstagedrc.mjs',
  'lint-staged.config.js',
  'lint-staged.config.cjs',
  'lint-staged.config.mjs',
  '.nano-staged.json',
] as const;

/** package.json keys a hook reads on every commit (husky 4, pre-commit, lint-staged, nano-staged). */
export const MANIFEST_HOOK_KEYS = ['husky', 'pre-commit', 'lint-staged', 'nano-staged'] as const;

export type HookFilesFound =
  | { readonly kind: 'listed'; readonly files: readonly string[] }
  | { readonly kind: 'unknown'; readonly reason: string };

/** The files between `from` and `to` (commits or trees) that git or a hook manager runs as hooks. */
export async function hookFilesChanged(repoPath: string, from: string, to: string): Promise<HookFilesFound> {
  const diff = await git(repoPath, ['diff', '--name-only', '-z', '--no-renames', '--ignore-submodules=all', from, to]);
  if (diff.exitCode !== 0)
    return { kind: 'unknown', reason: diff.stderr.trim().split('\n')[0] || `git diff exited ${diff.exitCode}` };
  const prefixes = [...HOOK_MANAGER_PATHS, ...(await configuredPaths(repoPath))];
  const changed = diff.stdout.split('\0').filter((f) => f !== '');
  const files = changed.filter((file) => prefixes.some((p) => reaches(file, p)));
  const keys = changed.includes('package.json') ? await manifestHookKeysChanged(repoPath, from, to) : [];
  return { kind: 'listed', files: [...files, ...keys] };
}

/** `package.json ("lint-staged")` for each hook key whose value differs between the two trees. */
async function manifestHookKeysChanged(repoPath: string, from: string, to: string): Promise<readonly string[]> {
  const [before, after] = await Promise.all([manifestAt(repoPath, from), manifestAt(repoPath, to)]);
  return MANIFEST_HOOK_KEYS.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key])).map(
    (key) => `package.json ("${key}")`,
  );
}

/** The root package.json of a tree, parsed; empty when there is none or it does not parse (then no hook reads it). */
async function manifestAt(repoPath: string, treeish: string): Promise<JsonObject> {
  const shown = await git(repoPath, ['cat-file', 'blob', `${treeish}:package.json`]);
  if (shown.exitCode !== 0) return {};
  try {
    const parsed: unknown = JSON.parse(shown.stdout);
    return isJsonObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
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

/**
 * What the user's git config (any scope but the harness's `-c`) makes git run or read from
 * the working tree, as paths inside it: the `core.hooksPath` directory, and the files it
 * includes (`include.path`, `includeIf.*.path`): a project that ships a `.gitconfig` its
 * users include lets whoever edits that file set hooks, fsmonitor or filters.
 */
async function configuredPaths(repoPath: string): Promise<readonly string[]> {
  const top = await git(repoPath, ['rev-parse', '--show-toplevel']);
  const root = top.exitCode === 0 ? top.stdout.trim() : repoPath;
  const found = await git(repoPath, [
    'config',
    '-z',
    '--show-scope',
    '--show-origin',
    '--get-regexp',
    '^(core\\.hookspath|include\\.path|includeif\\..*\\.path)$',
  ]);
  const fields = found.stdout.split('\0');
  const paths: string[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const [scope = '', origin = '', entry = ''] = fields.slice(i, i + 3);
    const newline = entry.indexOf('\n');
    if (scope === 'command' || newline === -1) continue;
    const key = entry.slice(0, newline);
    const value = entry.slice(newline + 1).trim();
    if (value === '' || value.startsWith('~')) continue;
    // Hooks are relative to the working tree's top; an include to the file that names it.
    const base = key === 'core.hookspath' ? root : dirname(resolve(repoPath, origin.replace(/^file:/, '')));
    const target = resolve(base, value);
    if (isStrictlyInside(root, target)) paths.push(relative(root, target).split(sep).join('/'));
  }
  return paths;
}
