/**
 * What an agent command may write of the repository its worktree belongs to.
 *
 * A linked worktree shares the user's git dir: its `config`, `hooks/`, `index`, `HEAD`,
 * `info/`, the run artifacts (and earlier versions' worktrees) under `agent/`, and any file
 * git would read there if it existed (`commondir`, `info/attributes`). So the shared
 * git dir is shown read-only, and only what a commit on the run's own branch needs is
 * writable again on top of it:
 * - `objects/` (new objects; `objects/info/`, where alternates would point git at
 *   another store, stays read-only);
 * - the worktree's own admin dir (`worktrees/<name>`: its HEAD, index, logs/HEAD);
 * - the run's ref directories (run-refs.ts) and their reflogs.
 * A command can therefore not plant anything the user's own git would read, alter the
 * audit trail, write into another run's worktree, or move the user's branches.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PrivateRepo } from '../workspace/private-repo/private-repo-layout.js';
import type { SandboxOverlay } from './sandbox-prelude.js';
import { isInside } from '../../definition/load/path-inside.js';

export interface RepositoryView {
  readonly readOnly: readonly string[];
  readonly writable: readonly string[];
  readonly overlays?: readonly SandboxOverlay[];
}

/**
 * The view of a worktree with a repository of its own (private-repo-layout.ts): the
 * user's git dir read-only, whole (objects, refs, config, admin dirs, artifacts); the
 * private admin dir shown at the worktree's admin dir's path (`gitDir`), so the
 * worktree's `.git` file leads the agent's git there, and from its `commondir` to the
 * private common dir, shown as a shared git dir is below: read-only but for its
 * objects (not `objects/info`, whose alternates name the user's objects) and the run's
 * own ref directories; the user's refs are a harness-written `packed-refs` there
 * (user-refs-snapshot.ts), so `main` is never a ref the agent made.
 */
export function privateRepositoryView(
  commonDir: string,
  gitDir: string,
  repo: PrivateRepo,
  refDirs: readonly string[],
): RepositoryView {
  const own = repositoryView(repo.commonDir, repo.commonDir, refDirs);
  return {
    readOnly: [commonDir, ...own.readOnly],
    writable: own.writable,
    overlays: [{ source: repo.adminDir, target: gitDir }],
  };
}

/**
 * The view of a linked worktree's shared git dir. Mount points must exist: the ref and
 * reflog directories are made when missing (empty directories change nothing for git).
 */
export function repositoryView(commonDir: string, gitDir: string, refDirs: readonly string[]): RepositoryView {
  const writable = [path.join(commonDir, 'objects')];
  if (path.resolve(gitDir) !== path.resolve(commonDir)) writable.push(gitDir);
  for (const dir of refDirs) {
    for (const full of [path.join(commonDir, dir), path.join(commonDir, 'logs', dir)]) {
      if (!isInside(path.join(commonDir, 'refs'), full) && !isInside(path.join(commonDir, 'logs', 'refs'), full))
        continue;
      mkdirSync(full, { recursive: true });
      writable.push(full);
    }
  }
  const objectsInfo = path.join(commonDir, 'objects', 'info');
  mkdirSync(objectsInfo, { recursive: true });
  return { readOnly: [commonDir, objectsInfo], writable };
}
