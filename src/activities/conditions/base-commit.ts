/**
 * The commit a run's work is judged against: the merge-base of HEAD and the branch the
 * issue branch was cut from (recorded by prepareWorkspace as `branch.<b>.agentBase`),
 * or an explicit commit/branch. Shared by the test-integrity guard (diff against it)
 * and baseline-aware test failures (tests run on it).
 */
import type { ConditionResult } from '../../contracts/activities.js';
import type { JsonValue } from '../../contracts/json.js';
import { git, gitScript } from '../workspace/git/git.js';

/**
 * HEAD's commit and branch and whether a tracked file differs from HEAD, from one
 * `git status --porcelain=v2 --branch` (not three git processes; each costs ~3 ms of
 * CPU, and every run checks its base several times). Upstream ahead/behind counts are
 * not computed (they walk history).
 */
export interface WorktreeState {
  /** undefined when HEAD has no commit yet or git failed. */
  readonly head: string | undefined;
  /** undefined on a detached HEAD. */
  readonly branch: string | undefined;
  readonly clean: boolean;
}

/** A whole commit id (SHA-1, or SHA-256 in a repository that uses it), not an abbreviation or a ref. */
export const FULL_COMMIT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

const STATUS_ARGS = ['status', '--porcelain=v2', '--branch', '--no-ahead-behind', '--untracked-files=no'] as const;
const UNKNOWN_STATE: WorktreeState = { head: undefined, branch: undefined, clean: false };

export async function worktreeState(worktreePath: string): Promise<WorktreeState> {
  const status = await git(worktreePath, STATUS_ARGS);
  return status.exitCode === 0 ? parseStatus(status.stdout) : UNKNOWN_STATE;
}

function parseStatus(stdout: string): WorktreeState {
  let head: string | undefined;
  let branch: string | undefined;
  let clean = true;
  for (const line of stdout.split('\n')) {
    if (line.startsWith('# branch.oid ')) head = FULL_COMMIT_ID.test(line.slice(13)) ? line.slice(13) : undefined;
    else if (line.startsWith('# branch.head ')) branch = line.slice(14) === '(detached)' ? undefined : line.slice(14);
    else if (line.trim() !== '' && !line.startsWith('#')) clean = false;
  }
  return { head, branch, clean };
}

/**
 * Finds the base in one harness git call: in an agent's worktree every git process is a
 * sandbox launch (~80 ms: sandboxed-git.ts), and the branch, its recorded base and the
 * merge-base were three of them, asked by every validator and phase that judges against
 * the base. `$1`: the explicit base, or empty; `$2`: the branch, or empty (asked here).
 * Prints the commit; exits 3 when there is none.
 */
const BASE_COMMIT_SCRIPT = `
ref="$1"; branch="$2"
if [ -z "$ref" ]; then
  [ -n "$branch" ] || branch=$(git symbolic-ref --quiet --short HEAD) || exit 3
  ref=$(git config --get "branch.$branch.agentBase") || exit 3
  [ -n "$ref" ] || exit 3
fi
base=$(git merge-base HEAD "$ref^{commit}" 2>/dev/null) && [ -n "$base" ] && { printf '%s\\n' "$base"; exit 0; }
git rev-parse --verify --quiet "$ref^{commit}" || exit 3
`;

/**
 * The base commit id: the merge-base of HEAD and `explicit` (or the branch's recorded
 * base), else that ref's own commit; undefined when nothing is recorded and nothing was given.
 */
export async function baseCommit(
  worktreePath: string,
  explicit?: string,
  state?: WorktreeState,
): Promise<string | undefined> {
  if (explicit === '') return undefined;
  // A state read on a detached HEAD names no branch, so no recorded base.
  if (explicit === undefined && state !== undefined && state.branch === undefined) return undefined;
  const found = await gitScript(worktreePath, BASE_COMMIT_SCRIPT, [explicit ?? '', state?.branch ?? '']);
  const commit = found.stdout.trim();
  return found.exitCode === 0 && commit !== '' ? commit : undefined;
}

/** Between the status and the base in STATE_AND_BASE_SCRIPT's output: no status line starts so. */
const BASE_MARKER = '# issue-agent-base';

/**
 * worktreeState and the recorded base (baseCommit without an explicit one) in one harness
 * git call, not two sandbox launches: the status, the marker line, then the base script
 * (exit 3: no base). Exit 4: the status failed, and nothing is known.
 */
const STATE_AND_BASE_SCRIPT = `
git ${STATUS_ARGS.join(' ')} || exit 4
printf '%s\\n' '${BASE_MARKER}'
set -- "" ""
${BASE_COMMIT_SCRIPT}`;

export async function worktreeStateAndBase(
  worktreePath: string,
): Promise<{ readonly state: WorktreeState; readonly base: string | undefined }> {
  const found = await gitScript(worktreePath, STATE_AND_BASE_SCRIPT, []);
  // The output may come trimmed: the marker is a line of its own, maybe the last.
  const [status = '', after] = found.stdout.split(new RegExp(`^${BASE_MARKER}$`, 'm'));
  if (found.exitCode === 4 || after === undefined) return { state: UNKNOWN_STATE, base: undefined };
  const base = found.exitCode === 0 ? after.trim() : '';
  return { state: parseStatus(status), base: base === '' ? undefined : base };
}

/** HEAD is `commit` and no tracked file differs from it: the worktree holds no work yet. */
export async function worktreeAtCommit(worktreePath: string, commit: string, state?: WorktreeState): Promise<boolean> {
  const { head, clean } = state ?? (await worktreeState(worktreePath));
  return head !== undefined && head === commit && clean;
}

/**
 * The files this branch changed against its base commit: committed on the branch or
 * still in the worktree (tracked), a rename as both its old and its new path.
 * Undefined when git cannot tell (the base was just resolved here, so a broken
 * repository): then only the names and the mode decide.
 */
export async function filesTouchedSince(worktreePath: string, commit: string): Promise<string[] | undefined> {
  const diff = await git(worktreePath, ['diff', '--name-only', '--no-renames', '--no-ext-diff', '-z', commit, '--']);
  if (diff.exitCode !== 0) return undefined;
  return diff.stdout.split('\0').filter((p) => p !== '');
}

/** The base for an explicit ref (or, without one, the recorded base), as baseCommit finds it. */
export type BaseCommits = (explicit?: string) => Promise<string | undefined>;

/**
 * baseCommit, each base found once: a closure's validators (branch-changed, test-integrity
 * and the baseline's two checks) judge one tree, and each asked for the same base; in an
 * agent's worktree every ask is a sandbox launch. One per runValidators call, never kept
 * longer: the next closure may judge another HEAD.
 */
export function baseCommitsOf(worktreePath: string): BaseCommits {
  const found = new Map<string, Promise<string | undefined>>();
  return (explicit) => {
    const key = explicit === undefined ? 'recorded' : `explicit:${explicit}`;
    let base = found.get(key);
    if (base === undefined) found.set(key, (base = baseCommit(worktreePath, explicit)));
    return base;
  };
}

/**
 * The verdict of a check that judges against the base when there is none: a failure the
 * agent cannot repair. It used to pass ("nothing compared"), and an agent that moved HEAD
 * off the run's branch and emptied it had its unchanged branch judged changed enough
 * (stranger-63's G7). A run always records its branch's base; a worktree made outside
 * a run names one with the condition param `base`.
 */
export function noBaseResult(validator: string, params: Readonly<Record<string, JsonValue>>): ConditionResult {
  return {
    validator,
    passed: false,
    summary:
      "no base commit to judge against: HEAD's branch has no recorded base (git config branch.<branch>.agentBase) " +
      'and the condition gives no `base` param; nothing can be compared, so nothing is vouched for',
    params: { ...params },
    unrecoverable: true,
  };
}
