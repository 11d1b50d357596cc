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
import { execa } from 'execa';
import type { CompletionStepDefinition, ValidatorDefinition } from '../../../src/contracts/definition.js';
import { AgentError } from '../../../src/contracts/errors.js';
import { PreflightStatus } from '../../../src/contracts/preflight.js';
import { cacheLayout } from '../../../src/activities/environment/cache-layout.js';
import { createSpawnerCommandRunner } from '../../../src/activities/process/spawner-command-runner.js';
import { runPreflight } from '../../../src/activities/preflight/run-preflight.js';
import { parseTestFailures } from '../../../src/activities/conditions/test-reports/parse-test-failures.js';
import { runCollectingReports } from '../../../src/activities/conditions/test-reports/report-files.js';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';
import { assertReadOnlyInSandbox, useEnvironmentProject } from './environment-fixtures.js';

const mvn = await execa('mvn', ['-v'], { reject: false }).then(
  (r) => r.exitCode === 0,
  () => false,
);
const skip = mvn ? false : 'mvn is not installed';

const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>demo</groupId>
  <artifactId>calc</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>5.14.1</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
      <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.4</version></plugin>
    </plugins>
  </build>
</project>
`;

const env = useEnvironmentProject({
  'pom.xml': POM,
  '.gitignore': 'target/\n',
  'src/main/java/demo/Calc.java':
    'package demo;\n\npublic class Calc {\n  public int add(int a, int b) { return a + b; }\n' +
    '  public int sub(int a, int b) { return a + b; } // the planted bug\n}\n',
  'src/test/java/demo/CalcTest.java':
    'package demo;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\nimport org.junit.jupiter.api.Test;\n\n' +
    'class CalcTest {\n  @Test void adds() { assertEquals(5, new Calc().add(2, 3)); }\n' +
    '  @Test void subtracts() { assertEquals(1, new Calc().sub(3, 2)); }\n}\n',
});

const step = (stepId: string): CompletionStepDefinition => ({
  stepId,
  name: stepId,
  c2: 'retry',
  c3: 'issue',
  conditions: [{ validator: 'tests', params: {} }],
  onFail: { action: 'retry', maxAttempts: 3 },
});

async function preflight(worktreePath: string, command: string) {
  // A run's branch records its base, as prepareWorkspace does.
  const branch = `agent/${worktreePath.split('/').pop() ?? 'wt'}`;
  await execa('git', ['switch', '--quiet', '-c', branch], { cwd: worktreePath });
  await execa('git', ['config', `branch.${branch}.agentBase`, 'main'], { cwd: worktreePath });
  const tests = {
    type: 'command',
    command,
    successWhen: 'exitCode:0',
    extractParams: {},
    baseline: 'ignore',
  } as ValidatorDefinition;
  return runPreflight(
    { commands: createSpawnerCommandRunner() },
    { worktreePath, completionSteps: [step('closure.issue')], validators: { tests } },
  );
}

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
    await assert.rejects(preflight(wt, commands.test ?? ''), (err: unknown) => {
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

  const report = await preflight(wt, commands.test ?? '');
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

  const warm = await env.prepareWarm();
  console.log(`maven setup: cold ${cold.durationMs} ms, warm ${warm.durationMs} ms`);
});
