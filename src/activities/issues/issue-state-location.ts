/**
 * Where the local issue store keeps an issue's state. The issue file in the user's
 * checkout (`.agent/issues/<n>.md`) is written in place only while git does not track
 * it (the default layout excludes `.agent/` in `.git/info/exclude`): then it is the
 * user's local notebook and no commit of theirs changes.
 *
 * When the user has committed the file, editing it in place would leave their base
 * branch dirty (and block later deliveries), and committing it would put our state
 * into their history behind their back. So the store's writes go to a copy under the
 * repository's git dir (`<git-common-dir>/issue-agent/issues/<n>.md`), which reads
 * prefer from then on. The committed file is never touched; deleting the copy returns
 * the issue to its committed state.
 */
import { join } from 'node:path';
import { stat } from 'node:fs/promises';
import { git } from '../workspace/git/git.js';

export const STATE_DIR = join('issue-agent', 'issues');

export interface IssueLocation {
  /** The file reads come from: the copy under the git dir when it exists for a tracked file. */
  readonly readPath: string;
  /** The file writes go to. */
  readonly writePath: string;
  /** True when git tracks the file in the user's checkout (writes go under the git dir). */
  readonly tracked: boolean;
}

/**
 * Resolves issue locations for one operation; `relative(n)` is the file's path inside
 * the repository and `treePath(n)` its absolute path in the checkout.
 */
export async function issueLocator(
  repoPath: string,
  issuesDir: string,
  treePath: (issue: number) => string,
): Promise<(issue: number) => Promise<IssueLocation>> {
  const tracked = await trackedFiles(repoPath, issuesDir);
  const stateDir = tracked.size > 0 ? await gitStateDir(repoPath) : undefined;
  return async (issue) => {
    const inTree = treePath(issue);
    const relative = join(issuesDir, `${issue}.md`).split('\\').join('/');
    if (!tracked.has(relative) || stateDir === undefined)
      return { readPath: inTree, writePath: inTree, tracked: false };
    const copy = join(stateDir, `${issue}.md`);
    return { readPath: (await exists(copy)) ? copy : inTree, writePath: copy, tracked: true };
  };
}

/** Paths (relative, `/`-separated) under `issuesDir` that git tracks; empty outside a git work tree. */
async function trackedFiles(repoPath: string, issuesDir: string): Promise<Set<string>> {
  const r = await git(repoPath, ['ls-files', '-z', '--full-name', '--', issuesDir]);
  if (r.exitCode !== 0) return new Set();
  return new Set(r.stdout.split('\0').filter((p) => p !== ''));
}

async function gitStateDir(repoPath: string): Promise<string | undefined> {
  const r = await git(repoPath, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  const dir = r.stdout.trim();
  return r.exitCode === 0 && dir !== '' ? join(dir, STATE_DIR) : undefined;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}
