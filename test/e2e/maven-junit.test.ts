/**
 * Java + Maven + JUnit 5, as a new user meets it: a pom.xml project (Surefire 3, the
 * compiler plugin pinned, junit-jupiter from Maven Central) on a fresh clone with an
 * empty local repository. A planted bug and a scripted fix: the environment phase runs
 * `dependency:go-offline` and the lifecycle up to test (so Surefire's JUnit provider is
 * fetched too), the detected `mvn -B -o …` test command runs offline in the sandbox, the
 * preflight keeps the red test on main as the baseline by its Surefire name
 * (`demo.CalcTest#subtracts`), and the run delivers the fix alone. Skipped without `mvn`.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TempGitRepo } from '../helpers/temp-git-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { fixSession } from '../helpers/fix-session.js';
import { CALC_TEST, mavenProject, skipWithoutMaven } from '../activities/environment/maven-project.js';
import { makeOrigin, removeStateDir, runOnFreshClone } from './fresh-clone-run.js';
import { assertSucceeded } from './run-diagnosis.js';

const BUGGY = 'return b + a;';
const RIGHT = 'return a - b;';
const TEST_COMMAND = 'mvn -B -o -q --fail-at-end -Dsurefire.failIfNoSpecifiedTests=false test';

const FILES = mavenProject({
  'src/main/java/demo/Calc.java': [
    'package demo;',
    '',
    '/** Integer arithmetic for the calculator. */',
    'public class Calc {',
    '  public int add(int a, int b) { return a + b; }',
    '',
    `  public int sub(int a, int b) { ${BUGGY} }`,
    '}',
    '',
  ].join('\n'),
  'src/test/java/demo/CalcTest.java': CALC_TEST,
});

const ISSUE = {
  title: 'Calc.sub adds instead of subtracting',
  body: 'new Calc().sub(3, 2) returns 5; it should return 1 (CalcTest.subtracts fails).',
};

let origin: TempGitRepo | undefined;

before(async () => {
  if (!skipWithoutMaven) origin = await makeOrigin(FILES);
});

after(async () => {
  await origin?.cleanup();
  await removeStateDir();
  await teardownEnv();
});

test(
  'a fresh clone: Maven resolves everything in setup, the red test is the baseline by name, the fix delivered',
  { skip: skipWithoutMaven },
  async () => {
    assert.ok(origin);
    const session = fixSession({
      name: 'calc',
      fix: { path: 'src/main/java/demo/Calc.java', old: BUGGY, new: RIGHT },
      testCommand: TEST_COMMAND,
    });
    const run = await runOnFreshClone({ origin, issue: ISSUE, session });
    assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
    await assertSucceeded(run);
    assert.deepEqual(await run.changedOnBranch(), ['src/main/java/demo/Calc.java']);
    const environment = (run.result?.environment ?? []).join('\n');
    assert.match(environment, /setup: `mvn -B dependency:go-offline` ran/);
    assert.match(environment, /setup: `mvn -B --fail-at-end .*` ran/);
    assert.match(environment, /preflight: tests: baseline .*demo\.CalcTest#subtracts/);
  },
);
