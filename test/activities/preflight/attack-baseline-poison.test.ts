/**
 * The base's measured failures are what a run's failures are excused by (baseline
 * `ignore`), and they are cached by repository, commit and command for every later run.
 * A hostile agent leaves its worktree at the base (no commit, no tracked file changed)
 * with one file added that makes a passing test fail: a later preflight there (the run
 * revived, or a new run of the same issue reusing the worktree) must not record that as
 * the base, or the agent's own regression of that test is later excused.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompletionStepDefinition, ValidatorDefinition } from '../../../src/contracts/definition.js';
import { PreflightStatus } from '../../../src/contracts/preflight.js';
import type { CommandRunner } from '../../../src/activities/process/command-runner.js';
import { createSpawnerCommandRunner } from '../../../src/activities/process/spawner-command-runner.js';
import { runPreflight } from '../../../src/activities/preflight/run-preflight.js';
import { baselineFailures } from '../../../src/activities/conditions/baseline/baseline-run.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';

const stateDir = await mkdtemp(join(tmpdir(), 'baseline-poison-state-'));
process.env.ISSUE_AGENT_STATE_DIR = stateDir;
after(() => rm(stateDir, { recursive: true, force: true }));

const TEST_COMMAND = 'node --test --test-reporter=tap';
const sandboxed = createSpawnerCommandRunner();
const input = (worktreePath: string) => ({
  worktreePath,
  completionSteps: [
    {
      stepId: 'closure.issue',
      name: 'closure.issue',
      c2: 'retry',
      c3: 'issue',
      conditions: [{ validator: 'tests', params: {} }],
      onFail: { action: 'retry', maxAttempts: 3 },
    } as CompletionStepDefinition,
  ],
  validators: {
    tests: {
      type: 'command',
      command: TEST_COMMAND,
      successWhen: 'exitCode:0',
      extractParams: {},
      baseline: 'ignore',
    } as ValidatorDefinition,
  },
});

test('a file the agent added never becomes the base’s failures', async () => {
  const repo = await makeTempGitRepo({
    files: {
      'math.test.mjs':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\ntest('important', () => assert.equal(1 + 1, 2));\n",
    },
  });
  try {
    await repo.git('config', 'branch.main.agentBase', 'main');
    const head = await repo.git('rev-parse', 'HEAD');
    const first = await runPreflight({ commands: sandboxed }, input(repo.dir));
    assert.equal(first.checks[0]?.status, PreflightStatus.Passed, first.checks[0]?.summary);
    // The agent, in its sandbox: a new test file with the same test name, failing.
    const planted = await sandboxed.run({
      command:
        "printf '%s\\n' \"import { test } from 'node:test';\" \"test('important', () => { throw new Error('planted'); });\" > zz.test.mjs && echo planted",
      cwd: repo.dir,
      timeoutMs: 30_000,
    });
    assert.match(planted.all, /planted/);
    assert.equal(await repo.git('status', '--porcelain', '--untracked-files=no'), '');
    await runPreflight({ commands: sandboxed }, input(repo.dir));
    const never: CommandRunner = { run: async () => assert.fail('the base is measured by the preflight') };
    const baseline = await baselineFailures(never, {
      worktreePath: repo.dir,
      commit: head,
      command: TEST_COMMAND,
      timeoutMs: 60_000,
    });
    assert.deepEqual(baseline?.failedTests, [], 'the planted failure was recorded as the base’s');
  } finally {
    await repo.cleanup();
  }
});
