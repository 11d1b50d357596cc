/**
 * The repository a run's worktree was made from: the user's (or the repository cache's)
 * git dir, where the harness itself adds and removes helper worktrees (the baseline's)
 * and which the agent never writes.
 *
 * The harness records it in the worktree's sandbox state when it makes the worktree, so
 * nothing the agent can write (its `.git` pointer, `commondir`, `objects/info/alternates`)
 * decides which directory the harness treats as the user's. A worktree made before the
 * record existed falls back to git's own answer.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gitDirsOf } from './git/git-state-snapshot.js';
import { sandboxDir, writeSandboxFile } from './sandbox-state.js';

const RECORD = 'base-repository';

/** Records `commonDir` (the user's git dir) as the base repository of `worktreePath`. */
export async function recordBaseRepository(worktreePath: string, commonDir: string): Promise<void> {
  await writeSandboxFile(worktreePath, RECORD, path.resolve(commonDir));
}

/** The recorded base repository's git dir, if the harness recorded one. */
export async function recordedBaseRepository(worktreePath: string): Promise<string | undefined> {
  const text = await readFile(path.join(sandboxDir(worktreePath), RECORD), 'utf8').catch(() => undefined);
  const dir = text?.trim();
  return dir === undefined || dir === '' ? undefined : dir;
}

/** The base repository's git dir: the record, else the worktree's common git dir. */
export async function baseRepositoryDir(worktreePath: string): Promise<string> {
  return (await recordedBaseRepository(worktreePath)) ?? (await gitDirsOf(worktreePath)).commonDir;
}
