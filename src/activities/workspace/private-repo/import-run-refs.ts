/**
 * Brings the run's branch and checkpoints from the agent's own repository into the
 * user's, as data: the one way anything the agent's git wrote reaches the user's git dir.
 *
 * 1. The tips, as the agent's repository names them (harness git in the worktree, so in
 *    the agent's sandbox): only the refs the harness recorded, each a commit id.
 * 2. The objects the user's repository lacks, packed by that same sandboxed git into the
 *    private import dir (`pack-objects --local`: the user's own objects are borrowed, not
 *    copied; the walk stops at the tip last imported). No agent command runs meanwhile.
 * 3. On the host, `index-pack --strict` in the user's repository reads that file as data:
 *    it hashes every object and checks every link, or nothing is kept. No git runs in a
 *    directory whose config, attributes or hooks the agent could have written.
 * 4. `update-ref` moves the recorded refs (a ref the agent deleted is left as it was).
 * The user's refs are then shown to the agent's repository afresh (user-refs-snapshot).
 */
import { existsSync } from 'node:fs';
import { copyFile, lstat, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '../../../contracts/errors.js';
import { FailureType } from '../../../contracts/failures.js';
import { git } from '../git/git.js';
import { privateRepoOf } from './private-repo-layout.js';
import { runRefFilter, writeUserRefs } from './user-refs-snapshot.js';
import { BranchSync, readSynced, reconcileBranch, writeSynced } from './branch-sync.js';
import { gitDirsOf } from '../git/git-state-snapshot.js';

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export interface ImportedRefs {
  /** Refs moved in the user's repository, with their new commit. */
  readonly updated: readonly { readonly ref: string; readonly commit: string }[];
}

/**
 * Imports the run's branch and `checkpointRefs` (full names under `refs/agent/`). A
 * worktree without a private repository (made outside a run) has nothing to import.
 */
export async function importRunRefs(
  worktreePath: string,
  checkpointRefs: readonly string[] = [],
  listed?: string,
): Promise<ImportedRefs | undefined> {
  const found = privateRepoOf(worktreePath);
  // Gone after delivery (a retried hook): what it held was imported before it went.
  if (found === undefined || !existsSync(path.join(worktreePath, '.git'))) return undefined;
  const { repo, record } = found;
  const wanted = new Set(refsToImport(record.branchRef, checkpointRefs));
  const tips = await agentTips(worktreePath, wanted, listed);
  const userRepo = record.userCommonDir;
  // The user's refs as they are now, for the agent's next commands and the harness's base.
  await writeUserRefs(userRepo, repo.commonDir, runRefFilter(record.branchRef));
  if (tips.length === 0) return { updated: [] };
  const missing = await missingCommits(
    userRepo,
    tips.map((t) => t.commit),
  );
  if (missing.length > 0) {
    // The walk stops at the tip last imported: a step costs its own objects, not the history.
    const synced = await readSynced(repo);
    const known = synced !== undefined && (await missingCommits(userRepo, [synced])).length === 0;
    await importObjects(worktreePath, repo.importDir, userRepo, missing, known ? [synced] : []);
  }
  const branch = tips.find((t) => t.ref === record.branchRef);
  const sync =
    branch === undefined
      ? BranchSync.Same
      : await reconcileBranch({ repo, worktreePath, userRepo, branchRef: branch.ref, agentTip: branch.commit });
  const updates = tips.filter((t) => t !== branch || sync === BranchSync.Import);
  if (updates.length > 0) {
    const input = updates.map((t) => `update ${t.ref} ${t.commit}\n`).join('');
    const moved = await git(userRepo, ['update-ref', '-m', 'issue-agent: import from the run', '--stdin'], { input });
    if (moved.exitCode !== 0) throw importError(`update-ref failed: ${moved.stderr.trim()}`, userRepo);
  }
  if (branch !== undefined && sync === BranchSync.Import) await showTipOnHost(worktreePath, userRepo, branch.commit);
  const tip = await git(userRepo, ['rev-parse', '--verify', '--quiet', `${record.branchRef}^{commit}`]);
  if (tip.exitCode === 0) await writeSynced(repo, tip.stdout.trim());
  return { updated: updates };
}

/**
 * The worktree's admin dir in the user's repository (what the host's git sees there:
 * a person looking into the worktree) gets an index of the new tip, so that git on the
 * host shows the worktree's real changes against it, not against the tip it was made at.
 */
async function showTipOnHost(worktreePath: string, userRepo: string, commit: string): Promise<void> {
  const { gitDir } = await gitDirsOf(worktreePath);
  await git(userRepo, ['read-tree', `--index-output=${path.join(gitDir, 'index')}`, commit]);
}

/**
 * The refs `importRunRefs(worktreePath, checkpointRefs)` imports, for a caller that lists
 * them itself (in the same sandboxed git process that moved them: commit-checkpoint.ts);
 * empty when the worktree has no private repository.
 */
export function runRefsToImport(worktreePath: string, checkpointRefs: readonly string[]): string[] {
  const found = privateRepoOf(worktreePath);
  if (found === undefined || !existsSync(path.join(worktreePath, '.git'))) return [];
  return refsToImport(found.record.branchRef, checkpointRefs);
}

function refsToImport(branchRef: string, checkpointRefs: readonly string[]): string[] {
  return [...new Set([branchRef, ...checkpointRefs.filter((r) => r.startsWith('refs/agent/'))])];
}

/**
 * The tips as the agent's repository names them: `listed` when the caller's sandboxed git
 * already printed them (`for-each-ref --format='%(objectname) %(objecttype) %(refname)'`
 * of exactly these refs), else asked here.
 */
async function agentTips(
  worktreePath: string,
  wanted: ReadonlySet<string>,
  listed?: string,
): Promise<{ readonly ref: string; readonly commit: string }[]> {
  const text = listed ?? (await listTips(worktreePath, wanted));
  const tips: { ref: string; commit: string }[] = [];
  for (const line of text.split('\n')) {
    const [commit, type, ref] = line.trim().split(' ');
    if (commit === undefined || ref === undefined || !wanted.has(ref)) continue;
    if (type !== 'commit' || !OBJECT_ID.test(commit)) continue;
    tips.push({ ref, commit });
  }
  return tips;
}

async function listTips(worktreePath: string, wanted: ReadonlySet<string>): Promise<string> {
  const listed = await git(worktreePath, [
    'for-each-ref',
    '--format=%(objectname) %(objecttype) %(refname)',
    ...wanted,
  ]);
  if (listed.exitCode !== 0) throw importError(`cannot list the run's refs: ${listed.stderr.trim()}`, worktreePath);
  return listed.stdout;
}

async function missingCommits(userRepo: string, commits: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const commit of new Set(commits)) {
    const has = await git(userRepo, ['cat-file', '-e', `${commit}^{commit}`]);
    if (has.exitCode !== 0) missing.push(commit);
  }
  return missing;
}

async function importObjects(
  worktreePath: string,
  importDir: string,
  userRepo: string,
  commits: readonly string[],
  have: readonly string[],
): Promise<void> {
  await rm(importDir, { recursive: true, force: true });
  await mkdir(importDir, { recursive: true, mode: 0o700 });
  try {
    const packed = await git(worktreePath, ['pack-objects', '--revs', '--local', '-q', path.join(importDir, 'run')], {
      input: [...commits, ...have.map((c) => `^${c}`)].map((line) => `${line}\n`).join(''),
    });
    const hash = packed.stdout.trim();
    if (packed.exitCode !== 0 || !OBJECT_ID.test(hash))
      throw importError(`the run's objects could not be packed: ${packed.stderr.trim() || hash}`, worktreePath);
    const pack = path.join(importDir, `run-${hash}.pack`);
    // Only a regular file: never read through a link the agent's git may have left.
    if (
      !(await lstat(pack).then(
        (s) => s.isFile(),
        () => false,
      ))
    )
      throw importError('the packed objects are not a regular file', pack);
    const target = path.join(userRepo, 'objects', 'pack', `pack-${hash}`);
    const indexed = await git(userRepo, ['index-pack', '--strict', '-o', `${target}.idx`, pack]);
    if (indexed.exitCode !== 0) {
      await rm(`${target}.idx`, { force: true });
      throw importError(`the run's objects failed verification: ${indexed.stderr.trim()}`, pack);
    }
    // The index is there first: git uses a pack only once both files exist.
    await copyFile(pack, `${target}.pack.tmp`);
    await rename(`${target}.pack.tmp`, `${target}.pack`);
  } finally {
    await rm(importDir, { recursive: true, force: true });
  }
}

function importError(message: string, where: string): AgentError {
  return new AgentError(FailureType.WorktreeFailed, `importing the run's branch: ${message}`, { where });
}
