/**
 * A file git ignores is not in the commit, yet the validators' tools read it: a
 * `conftest.py` under a directory whose own `.gitignore` says `*`, a `.cargo/config.toml`
 * runner, a compiled class in `src/test/resources` ahead of the real one on the test
 * classpath, a project `.npmrc` with a `script-shell`. No clean-tree check sees any of
 * them, and the branch delivered has none of them.
 *
 * So before the validators judge the tree, every ignored file the agent's commands wrote
 * since the harness last ran them (its change time is after the trusted stamp; nobody can
 * set a change time back) is moved out of the worktree into the validators' state, where
 * it is kept for whoever wants to see what was there. What setup installed, what the
 * preflight and earlier validators built and what the repository's checkout holds are
 * older and stay. Not walked: installed dependencies (read-only to the agent; their cache
 * directories are the validators' own) and the build outputs the validators never read
 * from the worktree (their own are shown there, validator-view.ts; cargo builds in their
 * own `CARGO_TARGET_DIR`), so the agent's incremental builds survive.
 */
import { lstatSync, readdirSync, type BigIntStats } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { git } from '../../workspace/git/git.js';
import { validatorStateDir } from '../../workspace/sandbox-state.js';

/** How many closures' set-aside files are kept (the newest). */
const KEPT = 3;

export interface SetAside {
  /** Worktree-relative paths moved out (or deleted when they could not be moved). */
  readonly paths: readonly string[];
  /** Where they were moved to. */
  readonly dir: string;
}

/**
 * Ignored paths as `git ls-files` lists them, file by file; a nested repository is one
 * entry (`dir/`). The directories never walked are left out by pathspec, so git does not
 * list an installed `node_modules` file by file.
 */
async function ignoredEntries(worktreePath: string, skipped: ReadonlySet<string>): Promise<string[] | undefined> {
  const excluded = [...skipped].map((rel) => `:(exclude,top,literal)${rel}`);
  const listed = await git(worktreePath, [
    'ls-files',
    '-z',
    '--others',
    '--ignored',
    '--exclude-standard',
    '--',
    '.',
    ...excluded,
  ]);
  if (listed.exitCode !== 0) return undefined;
  return listed.stdout.split('\0').filter((entry) => entry.length > 0);
}

/** Files (and links) under `rel` whose change time is after `since`, not descending into `skipped`. */
function writtenSince(worktreePath: string, rel: string, since: bigint, skipped: ReadonlySet<string>): string[] {
  if (skipped.has(rel)) return [];
  let info: BigIntStats;
  try {
    info = lstatSync(path.join(worktreePath, rel), { bigint: true });
  } catch {
    return [];
  }
  if (!info.isDirectory()) return info.ctimeNs > since ? [rel] : [];
  let names: string[];
  try {
    names = readdirSync(path.join(worktreePath, rel));
  } catch {
    return [];
  }
  return names.flatMap((name) => writtenSince(worktreePath, path.join(rel, name), since, skipped));
}

/**
 * Moves the ignored files written since `since` out of the worktree. `skipped` holds
 * worktree-relative directories that are never walked.
 */
export async function setAsideIgnored(
  worktreePath: string,
  since: bigint,
  skipped: ReadonlySet<string>,
): Promise<SetAside | undefined> {
  const entries = await ignoredEntries(worktreePath, skipped);
  if (entries === undefined) return undefined;
  const found = entries.flatMap((entry) => writtenSince(worktreePath, entry.replace(/\/+$/, ''), since, skipped));
  const paths = [...new Set(found)];
  const root = path.join(validatorStateDir(worktreePath), 'set-aside');
  if (paths.length > 0) await pruneOlder(root);
  const dir = path.join(root, new Date().toISOString().replace(/[:.]/g, '-'));
  for (const rel of paths) {
    const to = path.join(dir, rel);
    try {
      await mkdir(path.dirname(to), { recursive: true });
      await rename(path.join(worktreePath, rel), to);
    } catch {
      await rm(path.join(worktreePath, rel), { force: true, recursive: true });
    }
  }
  return { paths, dir };
}

/** Keeps the newest KEPT set-aside directories: an agent's rebuilt outputs are moved at every closure. */
async function pruneOlder(root: string): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(root).sort();
  } catch {
    return;
  }
  for (const name of names.slice(0, Math.max(0, names.length - (KEPT - 1))))
    await rm(path.join(root, name), { recursive: true, force: true });
}
