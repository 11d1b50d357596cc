/**
 * Read-only questions about a repository, each one git call. Kept separate from the
 * effects (worktree add/remove, merge) so the "look before acting" checks that make
 * the boundary hook idempotent read like the questions they ask.
 */
import { realpath } from 'node:fs/promises';
import { git } from './git.js';

/** True when `dir` is inside a git work tree. */
export async function isGitWorkTree(dir: string): Promise<boolean> {
  const r = await git(dir, ['rev-parse', '--is-inside-work-tree']);
  return r.exitCode === 0 && r.stdout.trim() === 'true';
}

/** The checked-out branch name, or undefined on a detached HEAD. */
export async function currentBranch(dir: string): Promise<string | undefined> {
  const r = await git(dir, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return r.exitCode === 0 ? r.stdout.trim() || undefined : undefined;
}

export async function hasCommits(dir: string): Promise<boolean> {
  return (await git(dir, ['rev-parse', '--verify', '--quiet', 'HEAD'])).exitCode === 0;
}

/** The commit `ref` names, or undefined when it names none. */
export async function resolveCommit(dir: string, ref: string): Promise<string | undefined> {
  const r = await git(dir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  const sha = r.stdout.trim();
  return r.exitCode === 0 && sha !== '' ? sha : undefined;
}

export async function branchExists(dir: string, branch: string): Promise<boolean> {
  return (await git(dir, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`])).exitCode === 0;
}

/** True when every commit of `ancestor` is already contained in `descendant`. */
export async function isAncestor(dir: string, ancestor: string, descendant: string): Promise<boolean> {
  return (await git(dir, ['merge-base', '--is-ancestor', ancestor, descendant])).exitCode === 0;
}

/**
 * Porcelain status lines. `includeUntracked: false` ignores untracked files: they do not
 * make a merge unsafe for the user's edits, only changes to tracked files do.
 */
export async function statusLines(dir: string, options: { includeUntracked: boolean }): Promise<string[]> {
  const args = ['status', '--porcelain', options.includeUntracked ? '--untracked-files=all' : '--untracked-files=no'];
  const r = await git(dir, args);
  return r.stdout.split('\n').filter((l) => l.trim() !== '');
}

export async function isValidBranchName(dir: string, branch: string): Promise<boolean> {
  return (await git(dir, ['check-ref-format', '--branch', branch])).exitCode === 0;
}

/** Path of a file inside the repository's common git dir (shared by all worktrees). */
export async function gitCommonPath(dir: string, relative: string): Promise<string> {
  const r = await git(dir, ['rev-parse', '--path-format=absolute', '--git-path', relative]);
  return r.stdout.trim();
}

export interface WorktreeEntry {
  /** Real (symlink-resolved) path. */
  readonly path: string;
  /** Short branch name, undefined when detached. */
  readonly branch?: string;
  /** Registered but its directory is gone. */
  readonly prunable: boolean;
}

export async function listWorktrees(dir: string): Promise<WorktreeEntry[]> {
  const r = await git(dir, ['worktree', 'list', '--porcelain']);
  const entries: WorktreeEntry[] = [];
  for (const block of r.stdout.split('\n\n')) {
    const lines = block.split('\n');
    const pathLine = lines.find((l) => l.startsWith('worktree '));
    if (!pathLine) continue;
    const branchLine = lines.find((l) => l.startsWith('branch '));
    const branch = branchLine?.slice('branch '.length).replace(/^refs\/heads\//, '');
    entries.push({
      path: await realOrSelf(pathLine.slice('worktree '.length)),
      ...(branch ? { branch } : {}),
      prunable: lines.some((l) => l.startsWith('prunable')),
    });
  }
  return entries;
}

/** Symlink-resolved path when it exists (temp dirs are symlinks on some systems). */
export async function realOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}
