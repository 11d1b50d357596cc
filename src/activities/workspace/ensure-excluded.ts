/**
 * Lines in a repository's `info/exclude`: local to that clone, so we never edit a tracked
 * `.gitignore` (that would itself dirty the tree). Two users: the user's checkout gets the
 * worktree root (so `git status` there stays quiet), and a run's own repository (the
 * private copy in sandbox state, never the user's) gets what setup and build tools leave
 * behind (environment/setup-leftovers.ts, environment/build-outputs.ts).
 */
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { gitCommonPath } from './git/repo-queries.js';
import { privateRepoOf } from './private-repo/private-repo-layout.js';
import { readOptional } from '../../definition/load/read-optional.js';

/**
 * Appends to `excludeFile`, under `# why`, the patterns it does not list yet (a `dir/`
 * pattern is listed when `dir/` or `dir` is); returns those appended.
 */
export async function appendExcludes(
  excludeFile: string,
  patterns: readonly string[],
  why: string,
): Promise<readonly string[]> {
  const existing = await readOptional(excludeFile);
  if (existing === undefined) await mkdir(path.dirname(excludeFile), { recursive: true });
  const current = existing ?? '';
  const listed = new Set(current.split('\n').map((line) => line.trim()));
  const missing = [...new Set(patterns)].filter(
    (pattern) => !listed.has(pattern) && !(pattern.endsWith('/') && listed.has(pattern.slice(0, -1))),
  );
  if (missing.length === 0) return [];
  const separator = current === '' || current.endsWith('\n') ? '' : '\n';
  await appendFile(excludeFile, `${separator}# ${why}\n${missing.join('\n')}\n`, 'utf8');
  return missing;
}

/** Keeps the worktree root out of `git status` of the user's checkout. Returns true when a line was added. */
export async function ensureExcluded(repoPath: string, relativeDir: string): Promise<boolean> {
  const excludeFile = await gitCommonPath(repoPath, 'info/exclude');
  const pattern = `/${relativeDir.split('\\').join('/')}/`;
  return (await appendExcludes(excludeFile, [pattern], 'durable issue agent worktrees')).length > 0;
}

/**
 * Ignores `patterns` for every git of the run by the worktree's own repository (never the
 * user's). False when the worktree has none (nothing written) or there is nothing to ignore;
 * true when they are all listed there now.
 */
export async function appendPrivateExcludes(
  worktreePath: string,
  patterns: readonly string[],
  why: string,
): Promise<boolean> {
  const own = privateRepoOf(worktreePath);
  if (own === undefined || patterns.length === 0) return false;
  await appendExcludes(path.join(own.repo.commonDir, 'info', 'exclude'), patterns, why);
  return true;
}
