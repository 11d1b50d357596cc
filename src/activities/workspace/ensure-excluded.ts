/**
 * Keeps the worktree root out of `git status` of the main checkout by listing it in
 * `.git/info/exclude`: local to this clone, so we never edit the user's tracked
 * `.gitignore` (that would itself dirty the tree).
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { gitCommonPath } from './git/repo-queries.js';
import { readOptional } from '../../definition/load/read-optional.js';

/** Returns true when a line was added. */
export async function ensureExcluded(repoPath: string, relativeDir: string): Promise<boolean> {
  const excludePath = await gitCommonPath(repoPath, 'info/exclude');
  const pattern = `/${relativeDir.split('\\').join('/')}/`;
  const existing = await readOptional(excludePath);
  if (existing === undefined) await mkdir(dirname(excludePath), { recursive: true });
  const current = existing ?? '';
  const lines = current.split('\n').map((l) => l.trim());
  if (lines.includes(pattern) || lines.includes(pattern.slice(0, -1))) return false;
  const separator = current === '' || current.endsWith('\n') ? '' : '\n';
  await appendFile(excludePath, `${separator}# durable issue agent worktrees\n${pattern}\n`, 'utf8');
  return true;
}
