/**
 * Puts some files of an agent's worktree back as they are on the base commit for one
 * command run, then back as the agent left them: the run of "this branch's tests on the
 * base's code" (tests-alone.ts). It runs in the worktree itself, not in a fresh checkout
 * of the base, because the worktree is where the run's environment is (installed
 * dependencies, its virtualenv); a detached checkout has none (baseline-run.ts says the
 * same of the preflight's measure).
 *
 * What the agent left is first recorded whole as a git tree (a temporary index, as the
 * checkpoints do, so the agent's own index is not touched), and a journal naming that tree
 * and the files is written to the harness state directory before any file changes: a
 * worker that dies mid-run leaves the journal, and the next validation of the worktree
 * puts the files back from it first (restoreInterruptedSwap, called by runValidators)
 * before anything judges the tree. Every file operation is a git script, so in an agent's
 * worktree it runs in the agent's sandbox like every harness git call.
 */
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '../../../contracts/errors.js';
import { FailureType } from '../../../contracts/failures.js';
import { git, gitOrThrow, gitScript } from '../../workspace/git/git.js';
import { stageWorktree } from '../../workspace/checkpoints/stage-worktree.js';
import { seedFromWorktreeIndex, withTemporaryIndex } from '../../workspace/checkpoints/temporary-index.js';
import { baselineCacheDir } from './baseline-run.js';
import { readOptional } from '../../../definition/load/read-optional.js';

interface SwapJournal {
  readonly worktreePath: string;
  /** The whole worktree as the agent left it. */
  readonly tree: string;
  readonly paths: readonly string[];
  /** HEAD when the files were swapped: a journal whose HEAD is gone is of another worktree's life. */
  readonly head: string;
}

/**
 * $1 the tree-ish to take the files from, $2 the number of replacements, then each
 * replacement as `mode,blob,path` (a file whose content is given instead), then the files:
 * each one there is written (content and mode), each one not there is removed. Against a
 * temporary index. A
 * directory where a file belongs goes (checkout-index -f, rm -r): a file a branch turned
 * into a directory. Whatever fails (a directory the agent made read-only) is an error of
 * the validation activity (WORKTREE_FAILED): the run stops, it never passes unchecked.
 */
const CHECKOUT = `
src=$1; n=$2; shift 2
git read-tree "$src" || exit 100
for ((i = 0; i < n; i++)); do git update-index --add --cacheinfo "$1" || exit 103; shift; done
present=()
for p in "$@"; do
  if git cat-file -e ":$p" 2>/dev/null; then present+=("$p"); else rm -rf -- "$p" || exit 101; fi
done
[ "\${#present[@]}" -eq 0 ] || git checkout-index -f -- "\${present[@]}" || exit 102
`;

/** The whole worktree as a tree object (untracked files too; ignored ones not), without touching its index. */
export async function worktreeTree(worktreePath: string): Promise<string> {
  return withTemporaryIndex(worktreePath, async (git, indexFile) => {
    await seedFromWorktreeIndex(worktreePath, git, indexFile);
    await stageWorktree(git);
    return (await git(['write-tree'])).trim();
  });
}

/**
 * Runs `work` with `paths` as on `base` (added ones removed; `contents` given instead
 * for some), then puts them back as
 * `tree` holds them (the worktree recorded by worktreeTree just before). The files are
 * back before this returns or throws.
 */
export async function withFilesAtBase<T>(
  options: {
    readonly worktreePath: string;
    readonly base: string;
    readonly tree: string;
    readonly paths: readonly string[];
    /** Paths (among `paths`) written with this content instead of the base's. */
    readonly contents?: Readonly<Record<string, string>>;
  },
  work: () => Promise<T>,
): Promise<T> {
  const head = (await gitOrThrow(options.worktreePath, ['rev-parse', 'HEAD'], FailureType.WorktreeFailed)).trim();
  const journal: SwapJournal = { worktreePath: options.worktreePath, tree: options.tree, paths: options.paths, head };
  const file = journalFile(options.worktreePath);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, JSON.stringify(journal), { mode: 0o600 });
  try {
    const replacements = await blobsOf(options.worktreePath, options.tree, options.contents ?? {});
    await checkout(options.worktreePath, options.base, options.paths, replacements);
    return await work();
  } finally {
    await putBack(journal, file);
  }
}

/**
 * Puts back the files of a run that a dead worker left at the base; true when there was
 * one. Nothing moves HEAD between the swap and the validation retried after the worker's
 * death; a journal whose HEAD differs is left from a worktree since removed and made
 * again at the same path (a run ended mid-swap, a new run of the issue), and is dropped:
 * its files are not this worktree's.
 */
export async function restoreInterruptedSwap(worktreePath: string): Promise<boolean> {
  const file = journalFile(worktreePath);
  const text = await readOptional(file);
  if (text === undefined) return false;
  const journal = parseJournal(text);
  const head = await git(worktreePath, ['rev-parse', 'HEAD']);
  if (journal === undefined || head.exitCode !== 0 || head.stdout.trim() !== journal.head) {
    await rm(file, { force: true });
    return false;
  }
  await putBack(journal, file);
  return true;
}

function parseJournal(text: string): SwapJournal | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<SwapJournal>;
    const { worktreePath, tree, paths, head } = parsed;
    if (typeof worktreePath !== 'string' || typeof tree !== 'string' || typeof head !== 'string') return undefined;
    if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string')) return undefined;
    return { worktreePath, tree, paths, head };
  } catch {
    return undefined;
  }
}

async function putBack(journal: SwapJournal, file: string): Promise<void> {
  await checkout(journal.worktreePath, journal.tree, journal.paths);
  await rm(file, { force: true });
}

/** Each content as a blob of the repository, with the mode its file has in `tree`: `mode,blob,path`. */
async function blobsOf(
  worktreePath: string,
  tree: string,
  contents: Readonly<Record<string, string>>,
): Promise<string[]> {
  const replacements: string[] = [];
  for (const [file, content] of Object.entries(contents)) {
    const blob = await gitOrThrow(
      worktreePath,
      ['hash-object', '-w', '--no-filters', '--stdin'],
      FailureType.WorktreeFailed,
      {
        input: content,
      },
    );
    const entry = await gitOrThrow(worktreePath, ['ls-tree', tree, '--', file], FailureType.WorktreeFailed);
    replacements.push(`${/^(100755|120000)\b/.exec(entry)?.[1] ?? '100644'},${blob.trim()},${file}`);
  }
  return replacements;
}

async function checkout(
  worktreePath: string,
  source: string,
  paths: readonly string[],
  replacements: readonly string[] = [],
): Promise<void> {
  await withTemporaryIndex(worktreePath, async (_git, indexFile) => {
    const args = [source, String(replacements.length), ...replacements, ...paths];
    const result = await gitScript(worktreePath, CHECKOUT, args, { temporaryIndexFile: indexFile });
    if (result.exitCode === 0) return;
    throw new AgentError(
      FailureType.WorktreeFailed,
      `could not write ${paths.length} file(s) of ${worktreePath} from ${source.slice(0, 12)}: ${(result.stderr || result.stdout).trim().split('\n')[0] ?? ''}`,
      { where: worktreePath, expected: 'a worktree whose files git can write' },
    );
  });
}

/** Keyed by the worktree's path: one swap at a time per worktree (its validation holds it). */
function journalFile(worktreePath: string): string {
  const key = createHash('sha256').update(path.resolve(worktreePath)).digest('hex').slice(0, 32);
  return path.join(baselineCacheDir(), 'swaps', `${key}.json`);
}
