/**
 * Makes a worktree's private repository (private-repo-layout.ts) when it has none (or
 * one of an earlier worktree at the same path): at
 * run start, before any agent command, and again for a worktree of a run that started
 * before private repositories existed (its branch is then taken from the user's
 * repository, where the agent's commits were written directly).
 *
 * Written with plain file operations, never by running git in it: it is assembled in a
 * fresh temporary directory and renamed into place, so a crash leaves either nothing or
 * a whole repository. Git runs only in the user's repository (harness git, hardened),
 * to read the branch tip and the object format.
 */
import { copyFile, lstat, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '../../../contracts/errors.js';
import { FailureType } from '../../../contracts/failures.js';
import { gitOrThrow } from '../git/git.js';
import { runRefFilter, writeUserRefs } from './user-refs-snapshot.js';
import {
  OWN_REPOSITORY_MARKER,
  privateRepoLayout,
  privateRepoOf,
  worktreeStamp,
  type PrivateRepo,
  type PrivateRepoRecord,
} from './private-repo-layout.js';

export interface PrivateRepoRequest {
  readonly repoPath: string;
  readonly worktreePath: string;
  /** The user's common git dir and the worktree's admin dir in it (absolute). */
  readonly userCommonDir: string;
  readonly userAdminDir: string;
  /** e.g. `agent/issue-7` */
  readonly branch: string;
}

export async function ensurePrivateRepo(request: PrivateRepoRequest): Promise<PrivateRepo> {
  const existing = privateRepoOf(request.worktreePath);
  const stamp = worktreeStamp(request.worktreePath);
  if (stamp === undefined)
    throw new AgentError(FailureType.WorktreeFailed, 'the worktree has no .git file', { where: request.worktreePath });
  if (existing !== undefined && existing.record.worktreeStamp === stamp) {
    await markOwnRepository(request.userAdminDir, existing.repo);
    return existing.repo;
  }
  const layout = privateRepoLayout(request.worktreePath);
  await mkdir(path.dirname(layout.root), { recursive: true, mode: 0o700 });
  const staging = await mkdtemp(`${layout.root}.new-`);
  try {
    await assemble(staging, layout, request, stamp);
    await rm(layout.root, { recursive: true, force: true });
    await rename(staging, layout.root);
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
  await markOwnRepository(request.userAdminDir, layout);
  return layout;
}

/** Records in the worktree's admin dir that it has a private repository (OWN_REPOSITORY_MARKER). */
async function markOwnRepository(userAdminDir: string, repo: PrivateRepo): Promise<void> {
  const marker = path.join(userAdminDir, OWN_REPOSITORY_MARKER);
  const recorded = await readFile(marker, 'utf8').catch(() => undefined);
  if (recorded !== `${repo.root}\n`) await writeFile(marker, `${repo.root}\n`);
}

async function assemble(
  staging: string,
  layout: PrivateRepo,
  request: PrivateRepoRequest,
  stamp: string,
): Promise<void> {
  const branchRef = `refs/heads/${request.branch}`;
  const tip = await gitOrThrow(
    request.repoPath,
    ['rev-parse', '--verify', '--end-of-options', `${branchRef}^{commit}`],
    FailureType.WorktreeFailed,
  );
  const format = await gitOrThrow(request.repoPath, ['rev-parse', '--show-object-format'], FailureType.WorktreeFailed);
  const at = (relative: string): string => path.join(staging, relative);
  for (const dir of ['common/objects/info', 'common/objects/pack', 'common/refs/tags', 'common/info', 'admin/logs'])
    await mkdir(at(dir), { recursive: true });
  await mkdir(path.dirname(at(`common/${branchRef}`)), { recursive: true });
  await mkdir(path.dirname(at(`common/logs/${branchRef}`)), { recursive: true });
  // The user's objects, borrowed read-only (the sandbox shows the user's git dir read-only).
  await writeFile(at('common/objects/info/alternates'), `${path.join(request.userCommonDir, 'objects')}\n`);
  await writeFile(at('common/config'), configText(request.userCommonDir, format));
  await writeFile(at('common/HEAD'), `ref: ${branchRef}\n`);
  await writeFile(at(`common/${branchRef}`), `${tip}\n`);
  // The tip both repositories agree on (branch-sync.ts).
  await writeFile(at('synced'), `${tip}\n`);
  await copyRegular(path.join(request.userCommonDir, 'info', 'exclude'), at('common/info/exclude'));
  // Absolute: inside the sandbox this admin dir is seen at the user's admin dir's path.
  await writeFile(at('admin/commondir'), `${layout.commonDir}\n`);
  await writeFile(at('admin/gitdir'), `${path.join(request.worktreePath, '.git')}\n`);
  await writeFile(at('admin/HEAD'), `ref: ${branchRef}\n`);
  // The checkout's stat cache: the first `git status` need not hash the whole tree.
  await copyRegular(path.join(request.userAdminDir, 'index'), at('admin/index'));
  await writeUserRefs(request.userCommonDir, at('common'), runRefFilter(branchRef));
  const record: PrivateRepoRecord = { userCommonDir: request.userCommonDir, branchRef, worktreeStamp: stamp };
  await writeFile(at('run.json'), JSON.stringify(record));
}

/**
 * The user's config is included, as a linked worktree would read it (it is read-only in
 * the sandbox); the repository format is this repository's own (git reads extensions
 * only from the file itself, not from includes).
 */
function configText(userCommonDir: string, format: string): string {
  const sha256 = format.trim() === 'sha256';
  return [
    '[core]',
    `\trepositoryformatversion = ${sha256 ? 1 : 0}`,
    '\tbare = false',
    ...(sha256 ? ['[extensions]', '\tobjectformat = sha256'] : []),
    '[include]',
    `\tpath = ${path.join(userCommonDir, 'config')}`,
    '',
  ].join('\n');
}

/** Copies `from` when it is a regular file (never through a symlink); else nothing. */
async function copyRegular(from: string, to: string): Promise<void> {
  const regular = await lstat(from).then(
    (info) => info.isFile(),
    () => false,
  );
  if (regular) await copyFile(from, to);
}
