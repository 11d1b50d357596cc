/**
 * Whether a candidate commit makes a task: in one reused worktree of the miner's clone,
 * at the parent with its environment prepared, the commit's test change alone is
 * applied and the tests run (before), then its other change too and they run again
 * (after). FAIL_TO_PASS and PASS_TO_PASS come from those two runs (test-verdicts.ts).
 */
import { FailureType } from '../../../contracts/failures.js';
import { gitOrThrow } from '../../../activities/workspace/git/git.js';
import { removeAgentSandbox } from '../../../activities/workspace/sandbox-state.js';
import { prepareSuite, runSuite, type SuiteResult } from '../suite/suite-run.js';
import { declaredTests, sameTest, splitTests, type TestSplit } from '../suite/test-verdicts.js';
import { applyPatch, type CommitParts } from './commit-parts.js';

export interface Verification {
  readonly qualifies: boolean;
  /** Why not, or a one-line summary of the split. */
  readonly reason: string;
  readonly split?: TestSplit;
}

export interface VerifyTarget {
  /** The user's repository (the caches' identity; never written). */
  readonly repoPath: string;
  /** A worktree of the miner's clone, reused from candidate to candidate. */
  readonly worktree: string;
  readonly testCommand: string;
  readonly setup?: readonly string[];
  readonly log?: (line: string) => void;
}

const git = (cwd: string, args: readonly string[]): Promise<string> => gitOrThrow(cwd, args, FailureType.RepoNotFound);

function failed(run: SuiteResult): string {
  const names = run.failures.map((f) => f.name);
  return names.length === 0 ? `exit ${run.exitCode ?? 'none'}` : names.slice(0, 3).join(', ');
}

export async function verifyCommit(
  target: VerifyTarget,
  parts: CommitParts,
  patches: { readonly test: string; readonly gold: string },
): Promise<Verification> {
  const tree = target.worktree;
  await git(tree, ['reset', '-q', '--hard']);
  await git(tree, ['checkout', '-q', '--detach', parts.parent]);
  // Each candidate starts as a run's fresh worktree would (the shared caches live outside
  // it): ignored files go too, or a later version's ignored Cargo.lock makes this parent's
  // `cargo fetch --locked` fail; and the worktree's environment state goes, or a venv of a
  // later commit's pins breaks an older commit's install (setup.py develop uses its setuptools).
  await git(tree, ['clean', '-ffdxq']);
  await removeAgentSandbox(tree);
  await prepareSuite({
    worktree: tree,
    repoPath: target.repoPath,
    baseCommit: parts.parent,
    ...(target.setup === undefined ? {} : { setup: target.setup }),
    ...(target.log === undefined ? {} : { log: target.log }),
  });
  await applyPatch(tree, patches.test, 'test change');
  const before = await runSuite(tree, target.testCommand);
  await applyPatch(tree, patches.gold, 'code change');
  const after = await runSuite(tree, target.testCommand);
  if (!before.ran || !after.ran) return { qualifies: false, reason: 'the test command did not finish' };
  const declared = declaredTests(patches.test);
  const loads = after.failures.filter((f) => f.scope === 'load');
  if (loads.length > 0) return { qualifies: false, reason: `does not load with the whole commit: ${failed(after)}` };
  const stillFailing = after.failures.filter((f) => declared.some((d) => sameTest(f.name, d)));
  if (stillFailing.length > 0)
    return { qualifies: false, reason: `a changed test fails with the whole commit: ${stillFailing[0]?.name ?? ''}` };
  if (after.exitCode !== 0 && after.failures.length === 0)
    return {
      qualifies: false,
      reason: `the tests fail with the whole commit and no failure is named (${failed(after)})`,
    };
  const split = splitTests(before, after, declared);
  if (split.failToPass.length === 0) {
    const why =
      before.exitCode === 0
        ? 'the changed tests pass without the code change'
        : `no failing test named before the change that passes after (${failed(before)})`;
    return { qualifies: false, reason: why, split };
  }
  return {
    qualifies: true,
    reason: `FAIL_TO_PASS ${split.failToPass.length}, PASS_TO_PASS ${split.passToPass.length}`,
    split,
  };
}
