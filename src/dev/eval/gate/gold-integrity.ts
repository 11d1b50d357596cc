/**
 * Whether a task's gold change (code and test patch, as the oracle delivers it) passes
 * the test-integrity guard by itself: the guard's own validator, run in a scratch
 * worktree at the base with the change applied. A task has no issue labels, so nothing is
 * waived (a run waives only for the label agent:tests-only). A commit that removes assertions
 * ("fixed up the tests") or edits test configuration (a `test:debug` script) is refused
 * by design; its oracle would measure that rule, not the gate's accuracy, so the task is
 * reported apart as invalid, with the finding.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FailureType } from '../../../contracts/failures.js';
import { git, gitOrThrow } from '../../../activities/workspace/git/git.js';
import {
  runTestIntegrityValidator,
  TEST_INTEGRITY_VALIDATOR,
} from '../../../activities/conditions/integrity/test-integrity-validator.js';
import { applyPatch } from '../mine/commit-parts.js';
import type { SweTask } from '../swe-jsonl.js';

/** The guard's summary when it refuses the gold change; undefined when it passes. */
export async function goldIntegrityFinding(repoPath: string, task: SweTask): Promise<string | undefined> {
  const tree = await mkdtemp(join(tmpdir(), 'issue-agent-eval-gold-'));
  await gitOrThrow(repoPath, ['worktree', 'add', '-q', '--detach', tree, task.baseCommit], FailureType.RepoNotFound);
  try {
    await applyPatch(tree, `${task.patch}${task.testPatch}`, 'gold change');
    const result = await runTestIntegrityValidator({
      validator: TEST_INTEGRITY_VALIDATOR,
      worktreePath: tree,
      params: { base: task.baseCommit },
    });
    return result.passed ? undefined : result.summary;
  } finally {
    await git(repoPath, ['worktree', 'remove', '--force', tree]);
    await rm(tree, { recursive: true, force: true });
  }
}
