/**
 * A Maven base whose tests do not compile, as an issue's new test often leaves it (it
 * calls `Calc.sub`, which the fix is to write). Surefire fetches its JUnit provider only
 * when it has compiled tests to scan, so the detected setup's second try gives it the
 * test framework's own jar to scan: the provider is still fetched, and
 *
 * - the preflight reports the file that does not compile (named from javac's error, a
 *   load failure) without stopping the run;
 * - once the code is written, the offline test command runs in the sandbox: nothing
 *   is missing from the local repository.
 *
 * Skipped where `mvn` is not installed.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { PreflightStatus } from '../../../src/contracts/preflight.js';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';
import { runInSandbox, useEnvironmentProject } from './environment-fixtures.js';
import { CALC_TEST, mavenPreflight, mavenProject, skipWithoutMaven as skip } from './maven-project.js';

const CALC = (more: string): string =>
  `package demo;\n\npublic class Calc {\n  public int add(int a, int b) { return a + b; }\n${more}}\n`;

const env = useEnvironmentProject(
  mavenProject({ 'src/main/java/demo/Calc.java': CALC(''), 'src/test/java/demo/CalcTest.java': CALC_TEST }),
);

test(
  'tests that do not compile on the base: the provider is fetched all the same; the file is reported',
  { skip },
  async () => {
    const wt = await env.project.worktree();
    const { commands } = await detectCommands(wt);
    const command = commands.test ?? '';
    const report = await env.prepare(wt);
    assert.deepEqual(
      report.steps.map((s) => s.status),
      ['ran', 'ran'],
      JSON.stringify(report.steps.map((s) => s.note)),
    );

    const preflight = await mavenPreflight(wt, command);
    const [check] = preflight.checks;
    assert.equal(check?.status, PreflightStatus.FailingOnBase);
    assert.match(check?.summary ?? '', /the tests cannot be loaded: src\/test\/java\/demo\/CalcTest\.java/);

    // The fix, written: the offline test run now compiles, loads Surefire's provider and passes.
    await writeFile(
      path.join(wt, 'src/main/java/demo/Calc.java'),
      CALC('  public int sub(int a, int b) { return a - b; }\n'),
    );
    const run = await runInSandbox(wt, `${command} 2>&1; echo "exit=$?"`);
    assert.match(run.output, /exit=0\s*$/, run.output);
    assert.doesNotMatch(run.output, /offline mode/);
  },
);
