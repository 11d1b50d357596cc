/**
 * A commit as a task's two halves: its test-file change (the hidden `test_patch`) and the
 * rest (the gold `patch`). A file is a test file by the test-integrity guard's own rule
 * (weakening-rules: `test/`, `*.test.js`, `test_*.py`, `*_test.go`, …), so the miner and
 * the gate agree on what a test is. A commit is a candidate when it changes at least one
 * test file and at least one source file that is not a test. CI pipelines
 * (`.github/workflows/`, `.travis.yml` …) are in neither half.
 */
import { FailureType } from '../../../contracts/failures.js';
import { git, gitOrThrow } from '../../../activities/workspace/git/git.js';
import { isCiPipelineFile, isTestFile } from '../../../activities/conditions/integrity/weakening-rules.js';

const SOURCE =
  /\.(py|pyi|pyx|js|mjs|cjs|ts|mts|cts|tsx|jsx|go|rs|java|kt|kts|rb|php|cs|c|cc|cpp|cxx|h|hpp|ex|exs|swift|scala|lua|sh|vue|svelte)$/;

export interface CommitParts {
  readonly commit: string;
  readonly parent: string;
  readonly testFiles: readonly string[];
  readonly otherFiles: readonly string[];
}

/** Pinned so the repository's config (renames, external diff, textconv, prefixes) cannot change the patches. */
const DIFF = ['-c', 'core.quotePath=false', 'diff', '--binary', '--no-color', '--no-ext-diff', '--no-textconv'];

/** Commits on the first-parent line from HEAD, newest first. */
export async function firstParentCommits(repo: string): Promise<string[]> {
  const out = await gitOrThrow(repo, ['rev-list', '--first-parent', 'HEAD'], FailureType.RepoNotFound);
  return out.split('\n').filter(Boolean);
}

/** The commit's files split into tests and the rest; undefined for a root commit. */
export async function commitParts(repo: string, commit: string): Promise<CommitParts | undefined> {
  const parent = await git(repo, ['rev-parse', '--verify', '--quiet', `${commit}^1`]);
  if (parent.exitCode !== 0) return undefined;
  const names = await gitOrThrow(
    repo,
    ['-c', 'core.quotePath=false', 'diff', '--name-only', '--no-renames', parent.stdout.trim(), commit],
    FailureType.RepoNotFound,
  );
  // A CI pipeline change is neither the fix nor its test (no test command reads it), and
  // test-integrity refuses a CI edit the issue did not ask for: the gold patch leaves it out.
  const files = names
    .split('\n')
    .filter(Boolean)
    .filter((f) => !isCiPipelineFile(f));
  return {
    commit,
    parent: parent.stdout.trim(),
    testFiles: files.filter(isTestFile),
    otherFiles: files.filter((f) => !isTestFile(f)),
  };
}

export function isCandidate(parts: CommitParts): boolean {
  return parts.testFiles.length > 0 && parts.otherFiles.some((f) => SOURCE.test(f));
}

/** `git diff --binary parent commit -- files`, ready for `git apply` (ends with a newline). */
export async function patchOf(repo: string, parts: CommitParts, files: readonly string[]): Promise<string> {
  const out = await git(repo, [...DIFF, '--no-renames', parts.parent, parts.commit, '--', ...files]);
  if (out.exitCode !== 0) throw new Error(`git diff failed in ${repo}: ${out.stderr.split('\n')[0] ?? ''}`);
  return out.stdout === '' ? '' : `${out.stdout}\n`;
}

/** Applies a patch in a worktree (index untouched); throws with git's message when it does not apply. */
export async function applyPatch(worktree: string, patch: string, what: string): Promise<void> {
  if (patch === '') return;
  const out = await git(worktree, ['apply', '--binary', '--whitespace=nowarn', '-'], { input: patch });
  if (out.exitCode !== 0) throw new Error(`the ${what} does not apply: ${(out.stderr || out.stdout).split('\n')[0]}`);
}
