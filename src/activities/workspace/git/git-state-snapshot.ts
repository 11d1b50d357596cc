/**
 * The snapshot half of the git-state guard: what of a repository's shared git dir can
 * make git run code (its `config`, its `hooks/`), plus the files that tell git where a
 * worktree's git dir is (`<worktree>/.git`, `<admin>/commondir`, `<admin>/gitdir`), read
 * before the agent's first step. Stored in the worker's state dir (sandbox-state), not
 * in the repository, so the agent cannot rewrite what it is checked against.
 */
import { readFileSync } from 'node:fs';
import { readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import { gitSnapshotPath, writeSandboxFile } from '../sandbox-state.js';
import { git } from './git.js';
import { lstatNow, readdirNow, readNow } from './stat-now.js';

/**
 * A file as found: its bytes and permission bits, or a symlink's target. `stamp` (inode,
 * size, ctime in ns, mode) lets a check skip reading a file that provably did not change:
 * ctime is set by the kernel on every write, rename or chmod and cannot be set back from
 * user space (utimes sets mtime, not ctime). Snapshots written before it existed lack it.
 */
export type FileEntry =
  | { readonly kind: 'file'; readonly mode: number; readonly base64: string; readonly stamp?: string }
  | { readonly kind: 'symlink'; readonly target: string };

/** The stamp of an lstat result (see FileEntry). */
export function stampOf(info: { ino: bigint; size: bigint; ctimeNs: bigint; mode: bigint }): string {
  return `${info.ino}:${info.size}:${info.ctimeNs}:${info.mode}`;
}

/**
 * True when `file` is provably still `expected` (same stamp), without reading it; false
 * means "read it and compare".
 */
export async function stampUnchanged(file: string, expected: FileEntry | null | undefined): Promise<boolean> {
  if (expected?.kind !== 'file' || expected.stamp === undefined) return false;
  const info = lstatNow(file);
  return info !== undefined && info.isFile() && stampOf(info) === expected.stamp;
}

export interface GitStateSnapshot {
  readonly version: 1;
  readonly repoPath: string;
  readonly worktreePath: string;
  readonly commonDir: string;
  /** Absolute path → entry, or null when the file did not exist. */
  readonly files: Readonly<Record<string, FileEntry | null>>;
  readonly hooksDir: string;
  /** Relative path under hooksDir → entry; null when there was no hooks directory. */
  readonly hooks: Readonly<Record<string, FileEntry>> | null;
}

/** Caps the snapshot: a hooks dir larger than this is not a normal one. */
const MAX_BYTES = 4 * 1024 * 1024;

/** Files up to this size are read synchronously. */
const SYNC_READ_MAX = 64n * 1024n;

export async function readEntry(file: string): Promise<FileEntry | null> {
  const info = lstatNow(file);
  if (info === undefined) return null;
  if (info.isSymbolicLink()) return { kind: 'symlink', target: await readlink(file) };
  if (!info.isFile()) return null;
  // Sync for the usual few-hundred-byte file (stat-now.ts); a big one must not stall the event loop.
  const bytes = info.size <= SYNC_READ_MAX ? readFileSync(file) : await readFile(file);
  const base64 = bytes.toString('base64');
  // Stamped only when nothing changed the file during the read (a racing write changes ctime).
  const after = lstatNow(file);
  const stamp = after !== undefined && stampOf(after) === stampOf(info) ? { stamp: stampOf(info) } : {};
  return { kind: 'file', mode: Number(info.mode & 0o777n), base64, ...stamp };
}

/** Every file under `dir` (recursively), by relative path; null when `dir` is not a directory. */
export async function readTree(dir: string): Promise<Record<string, FileEntry> | null> {
  const info = lstatNow(dir);
  if (info === undefined || !info.isDirectory()) return null;
  const out: Record<string, FileEntry> = {};
  let bytes = 0;
  async function walk(rel: string): Promise<void> {
    for (const entry of readdirNow(path.join(dir, rel))) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) {
        await walk(child);
        continue;
      }
      const read = await readEntry(path.join(dir, child));
      if (read === null) continue;
      bytes += read.kind === 'file' ? read.base64.length : read.target.length;
      if (bytes > MAX_BYTES) throw new Error(`${dir} holds more than ${MAX_BYTES} bytes of hooks`);
      out[child] = read;
    }
  }
  await walk('');
  return out;
}

/**
 * The relative paths of the files and symlinks under `dir` (recursively), as readTree
 * would key them, without reading any; null when `dir` is not a directory.
 */
export async function listTree(dir: string): Promise<string[] | null> {
  const info = lstatNow(dir);
  if (info === undefined || !info.isDirectory()) return null;
  const out: string[] = [];
  function walk(rel: string): void {
    for (const entry of readdirNow(path.join(dir, rel))) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile() || entry.isSymbolicLink()) out.push(child);
    }
  }
  walk('');
  return out;
}

/** Stores a per-path memo; a worker serving many worktrees starts over past 500 rather than grow. */
function remember<V>(memo: Map<string, V>, key: string, value: V): void {
  if (memo.size > 500) memo.clear();
  memo.set(key, value);
}

/**
 * The git dirs by worktree, with the stamps of what git found them by: the worktree's
 * `.git` and, in a linked worktree, its `commondir` pointer. Every sandboxed command
 * asks (sandbox-launch.ts), and a git process costs ~3 ms of CPU; two lstats do not.
 */
const knownGitDirs = new Map<string, { readonly stamp: string; readonly dirs: GitDirs }>();

interface GitDirs {
  readonly commonDir: string;
  readonly gitDir: string;
}

function pointerStamp(worktreePath: string, gitDir: string | undefined): string | undefined {
  const dotGit = lstatNow(path.join(worktreePath, '.git'));
  if (dotGit === undefined) return undefined;
  if (gitDir === undefined || dotGit.isDirectory()) return stampOf(dotGit);
  const commondir = lstatNow(path.join(gitDir, 'commondir'));
  return `${stampOf(dotGit)}/${commondir === undefined ? '-' : stampOf(commondir)}`;
}

/** The repository's common git dir and the worktree's own git dir (absolute). */
export async function gitDirsOf(worktreePath: string): Promise<GitDirs> {
  const known = knownGitDirs.get(worktreePath);
  if (known !== undefined && known.stamp === pointerStamp(worktreePath, known.dirs.gitDir)) return known.dirs;
  const r = await git(worktreePath, ['rev-parse', '--path-format=absolute', '--git-common-dir', '--absolute-git-dir']);
  const [commonDir, gitDir] = r.stdout.trim().split('\n');
  if (r.exitCode !== 0 || !commonDir || !gitDir) {
    throw new Error(`cannot find the git dirs of ${worktreePath}: ${r.stderr.trim() || 'not a git worktree'}`);
  }
  const dirs = { commonDir, gitDir };
  const stamp = pointerStamp(worktreePath, gitDir);
  if (stamp === undefined) knownGitDirs.delete(worktreePath);
  else remember(knownGitDirs, worktreePath, { stamp, dirs });
  return dirs;
}

/** The protected single files of a worktree (besides the hooks directory). */
export function protectedFiles(worktreePath: string, commonDir: string, gitDir: string): string[] {
  const files = [path.join(commonDir, 'config'), path.join(commonDir, 'config.worktree')];
  if (path.resolve(gitDir) !== path.resolve(commonDir)) {
    files.push(path.join(worktreePath, '.git'), path.join(gitDir, 'commondir'), path.join(gitDir, 'gitdir'));
    files.push(path.join(gitDir, 'config.worktree'));
  }
  return files;
}

/** Reads the current state (does not store it). */
export async function takeGitSnapshot(repoPath: string, worktreePath: string): Promise<GitStateSnapshot> {
  const { commonDir, gitDir } = await gitDirsOf(worktreePath);
  const files: Record<string, FileEntry | null> = {};
  for (const file of protectedFiles(worktreePath, commonDir, gitDir)) files[file] = await readEntry(file);
  const hooksDir = path.join(commonDir, 'hooks');
  return { version: 1, repoPath, worktreePath, commonDir, files, hooksDir, hooks: await readTree(hooksDir) };
}

/**
 * Records the snapshot for this worktree. With `keepExisting`, an earlier snapshot wins
 * (a resumed run must be checked against the state before its first step, not the state
 * a crashed step left).
 */
export async function snapshotGitState(
  repoPath: string,
  worktreePath: string,
  options: { readonly keepExisting: boolean },
): Promise<GitStateSnapshot> {
  if (options.keepExisting) {
    const existing = await loadGitSnapshot(worktreePath);
    if (existing !== undefined) return existing;
  }
  const snapshot = await takeGitSnapshot(repoPath, worktreePath);
  await writeSandboxFile(worktreePath, path.basename(gitSnapshotPath(worktreePath)), JSON.stringify(snapshot));
  return snapshot;
}

/** Parsed snapshots by path, while the file is the same (the guard loads one after every step). */
const parsedSnapshots = new Map<string, { readonly stamp: string; readonly snapshot: GitStateSnapshot | undefined }>();

export async function loadGitSnapshot(worktreePath: string): Promise<GitStateSnapshot | undefined> {
  const file = gitSnapshotPath(worktreePath);
  const info = lstatNow(file);
  if (info === undefined) {
    parsedSnapshots.delete(file);
    return undefined;
  }
  const known = parsedSnapshots.get(file);
  if (known !== undefined && known.stamp === stampOf(info)) return known.snapshot;
  const bytes = readNow(file);
  if (bytes === undefined) return undefined;
  const parsed = JSON.parse(bytes.toString('utf8')) as GitStateSnapshot;
  const snapshot = parsed.version === 1 ? parsed : undefined;
  remember(parsedSnapshots, file, { stamp: stampOf(info), snapshot });
  return snapshot;
}
