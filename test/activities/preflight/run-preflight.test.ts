/**
 * The preflight on real processes in the sandbox: a command that cannot run ends the run
 * as ENVIRONMENT_FAILED naming the command and its exit code; tests failing on the base
 * are named and recorded as the baseline (a later judgement reads them without running
 * the base again); a command shared by two completion steps runs once.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompletionStepDefinition, ConditionRef, ValidatorDefinition } from '../../../src/contracts/definition.js';
import { AgentError } from '../../../src/contracts/errors.js';
import { PreflightStatus } from '../../../src/contracts/preflight.js';
import type { CommandRunner } from '../../../src/activities/process/command-runner.js';
import { createSpawnerCommandRunner } from '../../../src/activities/process/spawner-command-runner.js';
import { runPreflight } from '../../../src/activities/preflight/run-preflight.js';
import { baselineFailures } from '../../../src/activities/conditions/baseline/baseline-run.js';
import { classifyFailures } from '../../../src/activities/conditions/baseline/classify-failures.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';

const stateDir = await mkdtemp(join(tmpdir(), 'preflight-state-'));
process.env.ISSUE_AGENT_STATE_DIR = stateDir;
after(() => rm(stateDir, { recursive: true, force: true }));

const real = createSpawnerCommandRunner();
const calls: string[] = [];
const counting: CommandRunner = {
  run: async (request) => {
    calls.push(request.command);
    return real.run(request);
  },
};

function step(stepId: string, conditions: ConditionRef[]): CompletionStepDefinition {
  return { stepId, name: stepId, c2: 'retry', c3: 'issue', conditions, onFail: { action: 'retry', maxAttempts: 3 } };
}

const command = (cmd: string, extra: Partial<Extract<ValidatorDefinition, { type: 'command' }>> = {}) =>
  ({ type: 'command', command: cmd, successWhen: 'exitCode:0', extractParams: {}, ...extra }) as ValidatorDefinition;

/** A repository whose branch records its base, as prepareWorkspace does for a run's branch. */
async function repoAtBase(files: Record<string, string> = {}) {
  const repo = await makeTempGitRepo({ files });
  await repo.git('config', 'branch.main.agentBase', 'main');
  return repo;
}

test('a missing tool is ENVIRONMENT_FAILED with the command, its exit code and the explaining line', async () => {
  const repo = await repoAtBase();
  try {
    await assert.rejects(
      runPreflight(
        { commands: real },
        {
          worktreePath: repo.dir,
          completionSteps: [step('closure.issue', [{ validator: 'tests', params: {} }])],
          validators: { tests: command('definitely-not-a-tool-xyz --run') },
        },
      ),
      (err: unknown) => {
        assert.ok(AgentError.isInstance(err));
        assert.equal(err.code, 'ENVIRONMENT_FAILED');
        assert.match(err.message, /definitely-not-a-tool-xyz --run/);
        assert.match(err.message, /exit 127/);
        assert.match(err.message, /no model request was made/);
        assert.match(err.message, /definitely-not-a-tool-xyz: command not found/);
        return true;
      },
    );
  } finally {
    await repo.cleanup();
  }
});

test('tests failing on the base are named and recorded as the baseline; a shared command runs once', async () => {
  const repo = await repoAtBase({
    'math.test.mjs': [
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      "test('adds', () => assert.equal(1 + 1, 2));",
      "test('unrelated red test', () => assert.equal(1, 2));",
      '',
    ].join('\n'),
  });
  try {
    const head = await repo.git('rev-parse', 'HEAD');
    const testCommand = 'node --test --test-reporter=tap';
    calls.length = 0;
    const report = await runPreflight(
      { commands: counting },
      {
        worktreePath: repo.dir,
        completionSteps: [
          step('closure.issue', [
            { validator: 'tests', params: {} },
            { validator: 'files', params: {} },
          ]),
          step('closure.review', [{ validator: 'tests', params: {} }]),
        ],
        validators: {
          tests: command(testCommand, { baseline: 'ignore' }),
          files: { type: 'file', paths: ['README.md'] },
        },
      },
    );
    assert.deepEqual(calls, [testCommand]);
    assert.equal(report.checks.length, 1);
    const [check] = report.checks;
    assert.equal(check?.status, PreflightStatus.Baseline);
    assert.deepEqual(check?.failedTests, ['unrelated red test']);
    const never: CommandRunner = {
      run: async () => assert.fail('the baseline should come from the preflight, not from another run'),
    };
    const baseline = await baselineFailures(never, {
      worktreePath: repo.dir,
      commit: head,
      command: testCommand,
      timeoutMs: 60_000,
    });
    assert.deepEqual(baseline?.failedTests, ['unrelated red test']);
  } finally {
    await repo.cleanup();
  }
});

test('tests that cannot load on the base are recorded as failing on base, and the gate does not call them regressions', async () => {
  const summary = (...lines: string[]) =>
    `printf '%s\\n' '=== short test summary info ===' ${lines.map((l) => `'${l}'`).join(' ')}; exit 1`;
  const mixed = summary(
    'FAILED tests/test_b.py::test_x - assert 1 == 2',
    'ERROR tests/test_a.py',
    '= 1 failed, 1 error in 0.1s =',
  );
  const loadsOnly = summary('ERROR tests/test_a.py', '= 1 error in 0.1s =');
  const repo = await repoAtBase();
  try {
    const head = await repo.git('rev-parse', 'HEAD');
    const report = await runPreflight(
      { commands: real },
      {
        worktreePath: repo.dir,
        completionSteps: [
          step('closure.issue', [
            { validator: 'tests', params: {} },
            { validator: 'unit', params: {} },
          ]),
        ],
        validators: { tests: command(mixed, { baseline: 'ignore' }), unit: command(loadsOnly, { baseline: 'ignore' }) },
      },
    );
    assert.deepEqual(
      report.checks.map((c) => c.status),
      [PreflightStatus.Baseline, PreflightStatus.FailingOnBase],
    );
    const never: CommandRunner = { run: async () => assert.fail('the preflight measured the base') };
    const a = { name: 'tests/test_a.py', file: 'tests/test_a.py', scope: 'load' as const };
    for (const cmd of [mixed, loadsOnly]) {
      const baseline = await baselineFailures(never, {
        worktreePath: repo.dir,
        commit: head,
        command: cmd,
        timeoutMs: 1,
      });
      assert.ok(baseline, cmd);
      assert.deepEqual(baseline.notLoading, [{ name: 'tests/test_a.py', file: 'tests/test_a.py' }]);
      const still = classifyFailures([a], baseline, 'ignore');
      assert.deepEqual([still.regressions, still.blocks], [[], false], cmd);
      const broken = { ...a, name: 'tests/test_c.py', file: 'tests/test_c.py' };
      assert.equal(classifyFailures([a, broken], baseline, 'ignore').blocks, true, 'a file that loaded there blocks');
    }
  } finally {
    await repo.cleanup();
  }
});

test('a command passing on the base, and one failing without a named test, do not stop the run', async () => {
  const repo = await repoAtBase();
  try {
    const report = await runPreflight(
      { commands: real },
      {
        worktreePath: repo.dir,
        completionSteps: [
          step('closure.issue', [
            { validator: 'ok', params: {} },
            { validator: 'lint', params: {} },
          ]),
        ],
        validators: { ok: command('true'), lint: command('echo "src/a.ts: 3 problems"; exit 1') },
      },
    );
    assert.deepEqual(
      report.checks.map((c) => [c.validator, c.status]),
      [
        ['ok', PreflightStatus.Passed],
        ['lint', PreflightStatus.FailingOnBase],
      ],
    );
  } finally {
    await repo.cleanup();
  }
});

test('a worktree that already holds the work of the run (a revived run) is not preflighted', async () => {
  const repo = await repoAtBase();
  try {
    await repo.git('checkout', '--quiet', '-b', 'agent/issue-1');
    await repo.git('config', 'branch.agent/issue-1.agentBase', 'main');
    await repo.write({ 'fix.txt': 'the agent was here\n' });
    await repo.git('add', '-A');
    await repo.git('commit', '--quiet', '-m', 'work');
    calls.length = 0;
    const report = await runPreflight(
      { commands: counting },
      {
        worktreePath: repo.dir,
        completionSteps: [step('closure.issue', [{ validator: 'tests', params: {} }])],
        validators: { tests: command('definitely-not-a-tool-xyz') },
      },
    );
    assert.deepEqual(calls, []);
    assert.match(report.skipped ?? '', /beyond the base commit/);
  } finally {
    await repo.cleanup();
  }
});

test("what the preflight's commands leave in the worktree is gone before the first step; setup's files stay", async () => {
  const repo = await repoAtBase({ BUILDINFO: 'source\n' });
  try {
    await repo.write({ 'setup-left.txt': 'left by the environment phase\n' });
    const build =
      'mkdir -p build && echo bin > build/test_runner && echo "<coverage/>" > coverage.xml && echo built > BUILDINFO';
    const report = await runPreflight(
      { commands: real },
      {
        worktreePath: repo.dir,
        completionSteps: [step('closure.issue', [{ validator: 'tests', params: {} }])],
        validators: { tests: command(build) },
      },
    );
    assert.deepEqual(
      report.checks.map((c) => c.status),
      [PreflightStatus.Passed],
    );
    assert.equal(await repo.git('status', '--porcelain', '--untracked-files=all'), '?? setup-left.txt');
  } finally {
    await repo.cleanup();
  }
});
