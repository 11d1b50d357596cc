/**
 * Confines editor paths to the worktree. The check runs on real paths (symlinks
 * resolved), so `link -> /etc` inside the worktree cannot be used to escape, and a
 * file that does not exist yet is judged by its nearest existing parent. A file with
 * more than one hard link is refused: its other name may be anywhere on the same
 * filesystem (`ln /home/u/.bashrc x` made from the agent's shell), and a path check
 * cannot tell where.
 *
 * A refusal goes back to the model, so it names only the path the agent gave (relative
 * to the worktree when it points inside) and what is wrong with it: never the resolved
 * target of a symlink (`/proc/<worker pid>/environ`) nor any other host path.
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInside } from '../../definition/load/path-inside.js';

export type PathCheck =
  { readonly ok: true; readonly absolute: string } | { readonly ok: false; readonly reason: string };

/** Files the agent should not read even inside the worktree (local secrets). */
const SECRET_FILE = /^\.env(\..+)?$/;
const SECRET_FILE_ALLOWED = /^\.env\.(example|sample|template)$/;

async function nearestExistingReal(target: string): Promise<string> {
  let current = target;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await realpath(current);
      return path.join(real, ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return target;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

export async function resolveInWorktree(worktreePath: string, requested: string): Promise<PathCheck> {
  if (requested.includes('\0')) return { ok: false, reason: 'the path contains a NUL byte' };
  const root = await realpath(worktreePath);
  // Relative paths are relative to the worktree; absolute ones must point into it.
  const lexical = path.resolve(root, requested);
  const lexicalFromGiven = path.resolve(worktreePath, requested);
  if (!isInside(root, lexical) && !isInside(path.resolve(worktreePath), lexicalFromGiven)) {
    return {
      ok: false,
      reason: `${requested} is outside the worktree; only files in the worktree can be used (give a path relative to it)`,
    };
  }
  const target = isInside(root, lexical)
    ? lexical
    : path.join(root, path.relative(path.resolve(worktreePath), lexicalFromGiven));
  // From here on the path is lexically inside: refusals name it relative to the worktree.
  const name = path.relative(root, target) || '.';
  const real = await nearestExistingReal(target);
  if (!isInside(root, real)) {
    return { ok: false, reason: `${name} is a symlink (or passes through one) leading outside the worktree` };
  }
  const base = path.basename(real);
  if (SECRET_FILE.test(base) && !SECRET_FILE_ALLOWED.test(base)) {
    return { ok: false, reason: `${name} is a local secrets file (.env); it is not available to the agent` };
  }
  const rel = path.relative(root, real).split(path.sep);
  if (rel[0] === '.git') {
    return { ok: false, reason: `${name} is inside .git; use git commands through bash instead` };
  }
  const info = await stat(real).catch(() => undefined);
  if (info !== undefined && !info.isDirectory() && info.nlink > 1) {
    return {
      ok: false,
      reason: `${name} has ${info.nlink} hard links; files linked from elsewhere cannot be used by the editor`,
    };
  }
  return { ok: true, absolute: real };
}
