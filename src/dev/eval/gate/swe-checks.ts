/**
 * A SWE-bench task's hidden checks, as SWE-bench runs them: the code under test (what a
 * run delivered, or the gold patch on the base), the task's test files reset to the base
 * commit and its test patch applied over them, then the test command; every FAIL_TO_PASS
 * and PASS_TO_PASS test must pass, by name (test-verdicts.ts). The environment is
 * prepared on the base commit (committed code only, as a run's environment phase does)
 * and the command runs in the agent's sandbox, as validators run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FailureType } from '../../../contracts/failures.js';
import { git, gitOrThrow } from '../../../activities/workspace/git/git.js';
import { removeAgentSandbox } from '../../../activities/workspace/sandbox-state.js';
import { detectCommands } from '../../../definition/repo-config/detect-commands.js';
import { applyPatch } from '../mine/commit-parts.js';
import { prepareSuite, runSuite } from '../suite/suite-run.js';
import { notPassing } from '../suite/test-verdicts.js';
import type { SweTask } from '../swe-jsonl.js';
import type { CheckResult } from '../task-repo.js';

/** What is tested: a ref of the task repository, or the gold patch applied on the base. */
export type CodeUnderTest = { readonly ref: string } | { readonly patch: string };

const git1 = (cwd: string, args: readonly string[]): Promise<string> => gitOrThrow(cwd, args, FailureType.RepoNotFound);

/** The paths a unified diff touches (both sides of each `diff --git` header). */
export function patchPaths(patch: string): string[] {
  const out = new Set<string>();
  for (const m of patch.matchAll(/^diff --git a\/(.+?) b\/(.+)$/gm)) {
    if (m[1]) out.add(m[1]);
    if (m[2]) out.add(m[2]);
  }
  return [...out];
}

/** The test files back as they are on the base (a file new in the test patch removed), then the test patch. */
async function applyTestPatch(tree: string, task: SweTask): Promise<void> {
  for (const path of patchPaths(task.testPatch)) {
    const atBase = await git(tree, ['cat-file', '-e', `${task.baseCommit}:${path}`]);
    if (atBase.exitCode === 0) await git1(tree, ['checkout', '-q', task.baseCommit, '--', path]);
    else await rm(join(tree, path), { force: true, recursive: true });
  }
  await applyPatch(tree, task.testPatch, 'test patch');
}

export async function testCommandOf(task: SweTask, tree: string): Promise<string> {
  const command = task.testCommand ?? (await detectCommands(tree)).commands.test;
  if (command === undefined)
    throw new Error(`task ${task.instanceId}: no test_command and none detected in the repository`);
  return command;
}

export async function runSweChecks(repoPath: string, code: CodeUnderTest, task: SweTask): Promise<CheckResult> {
  const tree = await mkdtemp(join(tmpdir(), 'issue-agent-eval-swe-'));
  await git1(repoPath, ['worktree', 'add', '-q', '--detach', tree, task.baseCommit]);
  try {
    await prepareSuite({
      worktree: tree,
      repoPath,
      baseCommit: task.baseCommit,
      ...(task.setup === undefined ? {} : { setup: task.setup }),
    });
    const command = await testCommandOf(task, tree);
    if ('ref' in code) await git1(tree, ['checkout', '-q', '--detach', code.ref]);
    else await applyPatch(tree, code.patch, 'gold patch');
    await applyTestPatch(tree, task);
    const run = await runSuite(tree, command);
    const failing = notPassing([...task.failToPass, ...task.passToPass], run);
    const exitCode = failing.length === 0 ? 0 : (run.exitCode ?? 1) || 1;
    const head = failing.length === 0 ? '' : `not passing: ${failing.slice(0, 10).join(', ')}\n`;
    return { command, exitCode, output: `${head}${run.tail}`, failing };
  } catch (err) {
    return { command: 'prepare the hidden checks', exitCode: 1, output: (err as Error).message, failing: [] };
  } finally {
    await removeAgentSandbox(tree).catch(() => undefined);
    await git(repoPath, ['worktree', 'remove', '--force', tree]);
    await rm(tree, { recursive: true, force: true });
  }
}
