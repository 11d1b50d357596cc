/**
 * The preflight stops a run that could not finish, on real repositories and processes:
 * `npm test --silent` where there is no package.json (npm's exit 254, no output), `make
 * test` whose recipe calls a missing program (make's `Error 127`, exit 2), and a test
 * command failing on the base with no failure named. Each is ENVIRONMENT_FAILED naming
 * the command, what was seen and what to configure. A command failing with named tests
 * is still the baseline (run-preflight.test.ts).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompletionStepDefinition, ValidatorDefinition } from '../../../src/contracts/definition.js';
import { AgentError } from '../../../src/contracts/errors.js';
import { createSpawnerCommandRunner } from '../../../src/activities/process/spawner-command-runner.js';
import { runPreflight } from '../../../src/activities/preflight/run-preflight.js';
import { classifyPreflight } from '../../../src/activities/preflight/classify-preflight.js';
import { preflightStop, stopsTheRun } from '../../../src/activities/preflight/preflight-stop.js';
import { fixture } from '../conditions/fixtures.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';

const stateDir = await mkdtemp(join(tmpdir(), 'preflight-stop-state-'));
process.env.ISSUE_AGENT_STATE_DIR = stateDir;
after(() => rm(stateDir, { recursive: true, force: true }));

const steps: CompletionStepDefinition[] = [
  {
    stepId: 'closure.issue',
    name: 'closure.issue',
    c2: 'retry',
    c3: 'issue',
    conditions: [{ validator: 'tests', params: {} }],
    onFail: { action: 'retry', maxAttempts: 3 },
  },
];

/** The built-in `tests` validator with `command`. */
const tests = (command: string): Record<string, ValidatorDefinition> => ({
  tests: {
    type: 'command',
    command,
    successWhen: 'exitCode:0',
    failurePattern: 'test-failed',
    extractParams: { failedTests: 'parseTestOutput' },
    baseline: 'ignore',
  },
});

/** Runs the preflight of `command` on a fresh repository holding `files`; returns the AgentError it throws. */
async function stopOf(files: Record<string, string>, command: string): Promise<AgentError> {
  const repo = await makeTempGitRepo({ files });
  try {
    await repo.git('config', 'branch.main.agentBase', 'main');
    const error = await runPreflight(
      { commands: createSpawnerCommandRunner() },
      { worktreePath: repo.dir, completionSteps: steps, validators: tests(command) },
    ).then(
      (report) => assert.fail(`expected the preflight to stop, got ${JSON.stringify(report)}`),
      (err: unknown) => err,
    );
    assert.ok(AgentError.isInstance(error), String(error));
    return error;
  } finally {
    await repo.cleanup();
  }
}

test('npm test --silent without a package.json: exit 254 with no output stops the run', async () => {
  const err = await stopOf({ 'pom.xml': '<project/>\n' }, 'npm test --silent');
  assert.equal(err.code, 'ENVIRONMENT_FAILED');
  assert.equal(err.retryable, false);
  assert.match(
    err.message,
    /cannot run `npm test --silent` on the base commit \(exit 254: npm could not find a file it needs, usually package\.json/,
  );
  assert.match(err.message, /no model request was made/);
  assert.match(err.message, /\(no output\)/);
  assert.match(err.message, /To fix: set `commands\.test` in \.agent\/config\.json to a command that runs/);
  // This stop means the agent-written setup was off: what turns it off is named.
  assert.match(err.message, /or let the model write the setup .*"agentSetup": false.*agent-setup\.md/);
  assert.equal(err.where, '.agent/config.json#/commands/test');
  assert.equal(err.details?.['cause'], 'could-not-run');
  assert.equal(err.details?.['exitCode'], 254);
});

test('make test calling a missing program: make exits 2 with "Error 127", the run stops naming it', async () => {
  const makefile = 'test:\n\tnonexistent-tool-xyz run --all\n';
  const err = await stopOf({ Makefile: makefile }, 'make test');
  assert.equal(err.code, 'ENVIRONMENT_FAILED');
  assert.match(err.message, /cannot run `make test` on the base commit \(exit 2: .*`nonexistent-tool-xyz`\)/);
  assert.match(err.message, /make: nonexistent-tool-xyz: No such file or directory/);
  assert.match(err.message, /Error 127/);
  assert.match(err.message, /To fix: install `nonexistent-tool-xyz` .*commands\.setup.*or set `commands\.test`/);
  assert.equal(err.details?.['program'], 'nonexistent-tool-xyz');
});

test('a test command failing on the base with no failure named stops the run: the gate could not judge it', async () => {
  const makefile = 'test:\n\t@echo "checking the calculator"\n\t@exit 1\n';
  const err = await stopOf({ Makefile: makefile }, 'make test');
  assert.equal(err.code, 'ENVIRONMENT_FAILED');
  assert.match(err.message, /^`make test` fails on the base commit \(exit 2\) and none of its failures can be named/);
  assert.match(err.message, /cannot tell the agent's fix from the failures already there/);
  assert.match(err.message, /make: \*\*\* \[Makefile:3: test\] Error 1/);
  assert.match(
    err.message,
    /To fix: set `commands\.test` in \.agent\/config\.json to a command that passes on the base/,
  );
  assert.match(err.message, /pytest/);
  assert.equal(err.details?.['cause'], 'unnamed-failures');
});

test('a base whose build fails says so, and that the fix is in the code or its build files, not the test command', () => {
  const stdout = [
    '[ERROR] COMPILATION ERROR :',
    '[ERROR] Source option 5 is no longer supported. Use 7 or later.',
    '[ERROR] Target option 5 is no longer supported. Use 7 or later.',
    '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.1:compile (default-compile) on project mathy: Compilation failure: Compilation failure:',
  ].join('\n');
  const command = 'mvn -B -o -q test';
  const verdict = classifyPreflight({ kind: 'test', command, exitCode: 1, stdout, stderr: '' });
  assert.ok(verdict.verdict === 'environment-failure' && stopsTheRun(verdict));
  const err = preflightStop({ validator: 'tests', command }, 1, verdict);
  assert.match(
    err.message,
    /^`mvn -B -o -q test` fails on the base commit \(exit 1\): its build fails before any test runs, so none/,
  );
  assert.match(
    err.message,
    /To fix: make the base commit build: fix what the lines above name \(the code, or build files such as pom\.xml/,
  );
  assert.match(err.message, /discard this run's branch and worktree and start the run again; or set `commands\.test`/);
  assert.equal(err.details?.['cause'], 'unnamed-failures');
});

test('a crash with nothing named stops too; a check of its own validator names that validator', () => {
  const crash = classifyPreflight({
    kind: 'test',
    command: 'pytest',
    exitCode: 4,
    stdout: fixture('pytest-conftest-crash.txt'),
    stderr: '',
  });
  assert.ok(crash.verdict === 'environment-failure' && stopsTheRun(crash));
  const err = preflightStop({ validator: 'tests', command: 'pytest' }, 4, crash);
  assert.match(err.message, /^`pytest` fails on the base commit \(exit 4\), its output looks like a crash, and none/);
  assert.match(err.message, /RuntimeError: conftest exploded/);
  const maven = classifyPreflight({
    kind: 'verify',
    command: 'mvn -B -o verify',
    exitCode: 1,
    stdout: fixture('maven-offline-plugin.txt'),
    stderr: '',
  });
  assert.ok(maven.verdict === 'environment-failure' && stopsTheRun(maven));
  const custom = preflightStop({ validator: 'verify', command: 'mvn -B -o verify' }, 1, maven);
  assert.equal(custom.where, "the agent's `verify` validator");
  assert.match(custom.message, /To fix: fetch every plugin and dependency it needs in `commands\.setup`/);
  assert.match(custom.message, /or set the `verify` validator's command to a command that runs/);
  // Tests that cannot load are named by file: the baseline can excuse them, no stop.
  const load = classifyPreflight({
    kind: 'test',
    command: 'go test ./...',
    exitCode: 1,
    stdout: fixture('go-test-build-failed.txt').split('\n').slice(0, 3).join('\n'),
    stderr: '',
  });
  assert.ok(load.verdict === 'environment-failure' && !stopsTheRun(load));
});

test('Gradle, which the environment phase does not prepare yet: the stop says so and names the doc', () => {
  const gradle = classifyPreflight({
    kind: 'test',
    command: './gradlew --offline --continue --console=plain test',
    exitCode: 1,
    stdout: fixture('gradle-wrapper-offline.txt'),
    stderr: '',
  });
  assert.ok(gradle.verdict === 'environment-failure' && stopsTheRun(gradle));
  const err = preflightStop(
    { validator: 'tests', command: './gradlew --offline --continue --console=plain test' },
    1,
    gradle,
  );
  assert.match(err.message, /wrapper had to download Gradle itself .*; no model request was made/);
  assert.match(
    err.message,
    /To fix: the environment phase does not fetch Gradle .*docs\/environments\/java-gradle\.md/,
  );
  assert.match(
    err.message,
    /; set `commands\.test` in \.agent\/config\.json to a command that runs in this repository; or let the model write the setup/,
  );
});

test('Jest under the git dir and a Maven older than the project needs: each stop names its own remedy', () => {
  const stop = (command: string, stdout: string) => {
    const verdict = classifyPreflight({ kind: 'test', command, exitCode: 1, stdout, stderr: '' });
    assert.ok(verdict.verdict === 'environment-failure' && stopsTheRun(verdict), JSON.stringify(verdict));
    return preflightStop({ validator: 'tests', command }, 1, verdict).message;
  };
  const jest = stop('yarn test', fixture('jest-27-worktree-under-git-dir.txt'));
  assert.match(jest, /Jest found no file at all: it ignores every path under a `\.git` directory/);
  assert.match(
    jest,
    /To fix: put the run's worktree outside any `\.git` directory.*leave `runner\.execution\.worktree\.root` unset/,
  );
  const maven = stop('mvn -B test', '[ERROR] Detected Maven Version: 3.8.7 is not in the allowed range [3.9,).\n');
  assert.match(maven, /the project needs a newer Maven than this host's: `\[3\.9,\)`/);
  assert.match(
    maven,
    /To fix: install Maven version \[3\.9,\) on the worker's machine, or commit the project's Maven wrapper/,
  );
});
