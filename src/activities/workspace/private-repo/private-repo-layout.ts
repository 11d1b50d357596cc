/**
 * The agent's own repository: where a run's git metadata lives, apart from the user's.
 *
 * A run's worktree is a linked worktree of the user's repository on the host (so the
 * user sees it in `git worktree list`, and the harness finds the repository, its
 * artifacts and its checkpoints from it). Inside the sandbox, though, the worktree's
 * admin dir (`<common>/worktrees/<name>`) shows a private admin dir instead, whose
 * `commondir` names a private common dir; both live in the worktree's sandbox state
 * (sandbox-state.ts), where no agent command can reach them except through those binds:
 *
 *   <state>/repo/admin    HEAD, index, logs/HEAD, `commondir` → ../common, `gitdir`
 *   <state>/repo/common   config (includes the user's), info/exclude (a copy), HEAD,
 *                         objects/ (its own; `info/alternates` → the user's objects,
 *                         read-only), refs/, logs/
 *   <state>/repo/common/objects/issue-agent-import   packs on their way into the user's
 *                         repository (import-run-refs)
 *   <state>/repo/run.json which refs are the run's (the harness's record, never the agent's)
 *
 * So every object the agent's git writes lands in its own store, every ref it moves is
 * its own; the user's git dir is read-only to it, whole. The run's branch and
 * checkpoints reach the user's repository only as verified data (import-run-refs.ts).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { sandboxDir } from '../sandbox-state.js';

export interface PrivateRepo {
  readonly root: string;
  readonly adminDir: string;
  readonly commonDir: string;
  readonly importDir: string;
  readonly recordFile: string;
}

/** What the harness recorded when it made the private repository. */
export interface PrivateRepoRecord {
  /** The user's common git dir, whose objects the private one borrows. */
  readonly userCommonDir: string;
  /** The run's branch (full ref name): the one ref imported besides checkpoints. */
  readonly branchRef: string;
  /**
   * The worktree's `.git` file as it was (inode and change time): a worktree removed and
   * made again at the same path gets a new private repository, not the old one's refs.
   */
  readonly worktreeStamp: string;
}

/**
 * The file in the worktree's admin dir of the user's repository (`<common>/worktrees/<name>`)
 * that says the worktree was given a private repository, naming its root. It lives and
 * goes with the worktree (git removes the admin dir with it), outside the sandbox state
 * that holds the repository, and is read-only to every agent command (the user's git dir
 * is): so a launch that finds the marker but not the repository knows the repository was
 * lost, and refuses to fall back to the shared view (sandbox-launch.ts).
 */
export const OWN_REPOSITORY_MARKER = 'issue-agent-own-repository';

/** The stamp of the worktree's `.git` file (read-only in the sandbox), or undefined. */
export function worktreeStamp(worktreePath: string): string | undefined {
  try {
    const info = statSync(path.join(worktreePath, '.git'));
    return `${info.ino}:${info.ctimeMs}`;
  } catch {
    return undefined;
  }
}

export function privateRepoLayout(worktreePath: string): PrivateRepo {
  const root = path.join(sandboxDir(worktreePath), 'repo');
  return {
    root,
    adminDir: path.join(root, 'admin'),
    commonDir: path.join(root, 'common'),
    // Beside the objects (git renames its temporary pack into place: same mount), in a
    // directory git never reads; emptied before and after each import.
    importDir: path.join(root, 'common', 'objects', 'issue-agent-import'),
    recordFile: path.join(root, 'run.json'),
  };
}

/** The worktree's private repository and its record, when the harness made one. */
export function privateRepoOf(
  worktreePath: string,
): { readonly repo: PrivateRepo; readonly record: PrivateRepoRecord } | undefined {
  const repo = privateRepoLayout(worktreePath);
  if (!existsSync(path.join(repo.adminDir, 'commondir'))) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(repo.recordFile, 'utf8')) as Partial<PrivateRepoRecord>;
    const { userCommonDir, branchRef, worktreeStamp: stamp } = parsed;
    if (typeof userCommonDir !== 'string' || typeof branchRef !== 'string' || typeof stamp !== 'string')
      return undefined;
    return { repo, record: { userCommonDir, branchRef, worktreeStamp: stamp } };
  } catch {
    return undefined;
  }
}
