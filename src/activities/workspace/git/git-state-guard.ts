/**
 * The restore half of the git-state guard. After each step (and each validator run,
 * which executes code the agent wrote) the repository's git config, hooks and worktree
 * pointers are compared with the snapshot taken before the run's first step; whatever
 * changed is put back and reported, so a planted hook or `core.fsmonitor` neither runs
 * in the harness's later git calls nor stays behind for the user's own next `git status`.
 *
 * The config is compared by its entries (git config --list), not its bytes, and the
 * harness's own keys (HARNESS_CONFIG_KEY: the base a branch was cut from, its owner) are carried
 * over: several runs of a batch share one config and each writes its key after the
 * others took their snapshots.
 */
import { chmod, lstat, mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { withRepoLock } from './repo-lock.js';
import { git } from './git.js';
import {
  listTree,
  loadGitSnapshot,
  readEntry,
  readTree,
  stampUnchanged,
  type FileEntry,
  type GitStateSnapshot,
} from './git-state-snapshot.js';

/** Config keys the harness itself writes during a run (lower-cased, as git lists them). */
export const HARNESS_CONFIG_KEY = /^branch\..+\.(agentbase|agentowner)$/;

export interface GitGuardReport {
  /** False when no snapshot exists for this worktree (nothing could be checked). */
  readonly checked: boolean;
  /** Absolute paths that differed from the snapshot and were restored (or removed). */
  readonly restored: readonly string[];
}

/** Checks the worktree's repository against its snapshot and restores what changed. */
export async function restoreGitState(worktreePath: string): Promise<GitGuardReport> {
  const snapshot = await loadGitSnapshot(worktreePath);
  if (snapshot === undefined) return { checked: false, restored: [] };
  // Almost every check finds nothing changed: it reads without the repository lock, so
  // runs sharing a repository do not queue for it after every step. A difference is
  // checked again and put back under the lock (the harness's own writes are atomic
  // renames, so an unlocked read can only see a difference that is re-checked).
  if (!(await anythingChanged(snapshot))) return { checked: true, restored: [] };
  return withRepoLock(snapshot.repoPath, () => restoreLocked(snapshot));
}

async function fileChanged(snapshot: GitStateSnapshot, file: string, expected: FileEntry | null): Promise<boolean> {
  if (await stampUnchanged(file, expected)) return false;
  const configFile = path.basename(file) === 'config' && path.dirname(file) === snapshot.commonDir;
  return configFile
    ? !(await sameConfig(file, expected))
    : !sameEntry(await readEntry(file).catch(() => null), expected);
}

async function anythingChanged(snapshot: GitStateSnapshot): Promise<boolean> {
  for (const [file, expected] of Object.entries(snapshot.files)) {
    if (await fileChanged(snapshot, file, expected)) return true;
  }
  const expected = snapshot.hooks;
  if (expected === null)
    return (await readEntry(snapshot.hooksDir).catch(() => null)) !== null || (await isDirectory(snapshot.hooksDir));
  const names = await listTree(snapshot.hooksDir).catch(() => null);
  if (names === null) return true;
  if (names.length !== Object.keys(expected).length || names.some((rel) => !(rel in expected))) return true;
  for (const rel of names) {
    const file = path.join(snapshot.hooksDir, rel);
    if (await stampUnchanged(file, expected[rel])) continue;
    if (!sameEntry(await readEntry(file).catch(() => null), expected[rel] ?? null)) return true;
  }
  return false;
}

async function isDirectory(dir: string): Promise<boolean> {
  return (await lstat(dir).catch(() => undefined))?.isDirectory() ?? false;
}

async function restoreLocked(snapshot: GitStateSnapshot): Promise<GitGuardReport> {
  const restored: string[] = [];
  for (const [file, expected] of Object.entries(snapshot.files)) {
    const configFile = path.basename(file) === 'config' && path.dirname(file) === snapshot.commonDir;
    if (!(await fileChanged(snapshot, file, expected))) continue;
    const keep = configFile ? await harnessEntries(file) : [];
    await putBack(file, expected);
    if (configFile) await reapplyHarnessKeys(file, expected, keep);
    restored.push(file);
  }
  restored.push(...(await restoreHooks(snapshot.hooksDir, snapshot.hooks)));
  return { checked: true, restored };
}

function sameEntry(a: FileEntry | null, b: FileEntry | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.kind === 'symlink' || b.kind === 'symlink') return a.kind === b.kind && JSON.stringify(a) === JSON.stringify(b);
  return a.base64 === b.base64 && (a.mode & 0o111) === (b.mode & 0o111);
}

async function putBack(file: string, expected: FileEntry | null): Promise<void> {
  await rm(file, { recursive: true, force: true });
  if (expected === null) return;
  await mkdir(path.dirname(file), { recursive: true });
  if (expected.kind === 'symlink') {
    await symlink(expected.target, file);
    return;
  }
  const temp = `${file}.issue-agent-restore`;
  await writeFile(temp, Buffer.from(expected.base64, 'base64'), { mode: expected.mode });
  await chmod(temp, expected.mode);
  await rename(temp, file);
}

/** `key=value` entries of a config file, or undefined when git cannot read it. */
async function configEntries(file: string): Promise<string[] | undefined> {
  const r = await git(path.dirname(file), ['config', '--file', file, '--list', '-z']);
  if (r.exitCode !== 0) return undefined;
  return r.stdout.split('\0').filter((e) => e !== '');
}

function keyOf(entry: string): string {
  return entry.split('\n')[0] ?? '';
}

async function sameConfig(file: string, expected: FileEntry | null): Promise<boolean> {
  const current = await readEntry(file).catch(() => null);
  if (current === null || expected === null || current.kind !== 'file' || expected.kind !== 'file') {
    return sameEntry(current, expected);
  }
  if (current.base64 === expected.base64) return true;
  const now = await configEntries(file);
  const before = await entriesOfBytes(file, expected);
  if (now === undefined || before === undefined) return false;
  const strip = (list: string[]): string => list.filter((e) => !HARNESS_CONFIG_KEY.test(keyOf(e))).join('\0');
  return strip(now) === strip(before);
}

/** Parses snapshot bytes with git by writing them to a scratch file next to the config. */
async function entriesOfBytes(file: string, entry: FileEntry & { kind: 'file' }): Promise<string[] | undefined> {
  // Unique: unlocked checks of several runs may parse at the same time.
  const scratch = `${file}.issue-agent-snapshot.${process.pid}.${Math.random().toString(36).slice(2, 10)}`;
  await writeFile(scratch, Buffer.from(entry.base64, 'base64'));
  try {
    return await configEntries(scratch);
  } finally {
    await rm(scratch, { force: true });
  }
}

async function harnessEntries(file: string): Promise<string[]> {
  return ((await configEntries(file)) ?? []).filter((e) => HARNESS_CONFIG_KEY.test(keyOf(e)));
}

/** After writing the snapshot back: the harness keys are as they were just before. */
async function reapplyHarnessKeys(file: string, expected: FileEntry | null, keep: readonly string[]): Promise<void> {
  if (expected === null) return;
  for (const entry of await harnessEntries(file)) {
    await git(path.dirname(file), ['config', '--file', file, '--unset-all', keyOf(entry)]);
  }
  for (const entry of keep) {
    const [key, ...value] = entry.split('\n');
    if (key) await git(path.dirname(file), ['config', '--file', file, '--add', key, value.join('\n')]);
  }
}

async function restoreHooks(dir: string, expected: Readonly<Record<string, FileEntry>> | null): Promise<string[]> {
  const current = await readTree(dir).catch(() => null);
  const restored: string[] = [];
  if (expected === null) {
    const exists = await readEntry(dir).catch(() => null);
    if (current !== null || exists !== null) {
      await rm(dir, { recursive: true, force: true });
      restored.push(dir);
    }
    return restored;
  }
  if (current === null) {
    // Replaced by a file or symlink, or removed: rebuild it.
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
  }
  const now = current ?? {};
  for (const rel of Object.keys(now)) {
    if (!(rel in expected)) {
      await rm(path.join(dir, rel), { recursive: true, force: true });
      restored.push(path.join(dir, rel));
    }
  }
  for (const [rel, entry] of Object.entries(expected)) {
    if (sameEntry(now[rel] ?? null, entry)) continue;
    await putBack(path.join(dir, rel), entry);
    restored.push(path.join(dir, rel));
  }
  return restored;
}
