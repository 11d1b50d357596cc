/**
 * The environment phase and the preflight on a real Maven project (JUnit 5, Surefire 3,
 * one planted failing test; dependencies and plugins from Maven Central at setup):
 *
 * - `dependency:go-offline` alone leaves out what `mvn -o test` needs (plugins' own
 *   dependencies, Surefire's JUnit provider): the preflight stops the run as
 *   ENVIRONMENT_FAILED, naming the unresolved artifact and what to configure;
 * - the detected setup (go-offline, then the lifecycle up to test running none) fills
 *   the shared local repository, read-only to the sandbox, and the detected offline test
 *   command's failure is named per test (`demo.CalcTest#subtracts`) from Surefire's XML
 *   report and recorded as the baseline; a second worktree finds the setup cached.
 *
 * Skipped where `mvn` is not installed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentError } from '../../../src/contracts/errors.js';
import { PreflightStatus } from '../../../src/contracts/preflight.js';
import { cacheLayout } from '../../../src/activities/environment/cache-layout.js';
import { createSpawnerCommandRunner } from '../../../src/activities/process/spawner-command-runner.js';
import { parseTestFailures } from '../../../src/activities/conditions/test-reports/parse-test-failures.js';
import { runCollectingReports } from '../../../src/activities/conditions/test-reports/report-files.js';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';
import { assertReadOnlyInSandbox, useEnvironmentProject } from './environment-fixtures.js';
import { CALC_TEST, mavenPreflight, mavenProject, skipWithoutMaven as skip } from './maven-project.js';

const env = useEnvironmentProject(
  mavenProject({
    'src/main/java/demo/Calc.java':
      'package demo;\n\npublic class Calc {\n  public int add(int a, int b) { return a + b; }\n' +
      '  public int sub(int a, int b) { return a + b; } // the planted bug\n}\n',
    'src/test/java/demo/CalcTest.java': CALC_TEST,
  }),
);

test(
  'go-offline alone cannot run the tests offline: the preflight stops before any model request',
  { skip },
  async () => {
    const wt = await env.project.worktree('go-offline-only');
    const { commands } = await detectCommands(wt);
    const report = await env.prepare(wt, { setup: ['mvn -B dependency:go-offline'] });
    assert.deepEqual(
      report.steps.map((s) => s.status),
      ['ran'],
    );
    await assert.rejects(mavenPreflight(wt, commands.test ?? ''), (err: unknown) => {
      assert.ok(AgentError.isInstance(err));
      assert.equal(err.code, 'ENVIRONMENT_FAILED');
      assert.match(err.message, /no model request was made/);
      assert.match(err.message, /Maven could not resolve a plugin or dependency/);
      assert.match(
        err.message,
        /…Plugin org\.apache\.maven\.plugins:maven-resources-plugin:2\.6 or one of its dependencies/,
      );
      assert.match(err.message, /To fix: fetch every plugin and dependency it needs in `commands\.setup`/);
      return true;
    });
  },
);

test('detected setup resolves everything; the offline test run names the failing test; cached', { skip }, async () => {
  const wt = await env.project.worktree('detected');
  const { commands, reasons } = await detectCommands(wt);
  assert.equal(commands.test, 'mvn -B -o -q --fail-at-end -Dsurefire.failIfNoSpecifiedTests=false test');
  assert.match(reasons.join('\n'), /pom\.xml/);
  const cold = await env.prepare(wt);
  assert.match(cold.detected.join('\n'), /^maven: mvn -B dependency:go-offline/m);
  assert.deepEqual(
    cold.steps.map((s) => [s.command.split(' ').slice(0, 3).join(' '), s.status]),
    [
      ['mvn -B dependency:go-offline', 'ran'],
      ['mvn -B --fail-at-end', 'ran'],
    ],
  );
  const repo = cacheLayout(env.project.repo.dir).mavenRepo;
  assert.match(cold.sandbox.env['MAVEN_OPTS'] ?? '', new RegExp(`-Dmaven\\.repo\\.local=${repo}`));
  await assertReadOnlyInSandbox(wt, repo);

  const report = await mavenPreflight(wt, commands.test ?? '');
  const [check] = report.checks;
  assert.equal(check?.status, PreflightStatus.Baseline, check?.summary);
  assert.deepEqual(check?.failedTests, ['demo.CalcTest#subtracts']);
  assert.equal(check?.exitCode, 1);
  // The names came from Surefire's XML report of that run (the console names the same test).
  const { reports } = await runCollectingReports(createSpawnerCommandRunner(), {
    command: commands.test ?? '',
    cwd: wt,
    timeoutMs: 180_000,
  });
  assert.equal(reports.surefireXml?.length, 1);
  assert.deepEqual(
    parseTestFailures('', reports).map((f) => [f.name, f.excerpt?.split('\n')[0]]),
    [['demo.CalcTest#subtracts', 'org.opentest4j.AssertionFailedError: expected: <1> but was: <5>']],
  );

  // Everything setup leaves is in the shared repository: a new worktree of the same poms skips both steps.
  const warm = await env.prepareWarm();
  assert.deepEqual(
    warm.steps.map((s) => [s.status, s.reused.join()]),
    [
      ['skipped', `Maven local repository ${repo} (this repository and lockfile)`],
      ['skipped', `Maven local repository ${repo} (this repository and lockfile)`],
    ],
  );
  console.log(`maven setup: cold ${cold.durationMs} ms, warm ${warm.durationMs} ms`);
});
