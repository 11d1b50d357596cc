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
import { execa } from 'execa';
import type { TempGitRepo } from '../helpers/temp-git-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { fixSession } from '../helpers/fix-session.js';
import { makeOrigin, removeStateDir, runOnFreshClone } from './fresh-clone-run.js';

const mvn = await execa('mvn', ['-v'], { reject: false }).then(
  (r) => r.exitCode === 0,
  () => false,
);

const BUGGY = 'return b + a;';
const RIGHT = 'return a - b;';
const TEST_COMMAND = 'mvn -B -o -q --fail-at-end -Dsurefire.failIfNoSpecifiedTests=false test';

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

const FILES = {
  'pom.xml': POM,
  '.gitignore': 'target/\n',
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
  'src/test/java/demo/CalcTest.java': [
    'package demo;',
    '',
    'import static org.junit.jupiter.api.Assertions.assertEquals;',
    'import org.junit.jupiter.api.Test;',
    '',
    'class CalcTest {',
    '  @Test void adds() { assertEquals(5, new Calc().add(2, 3)); }',
    '',
    '  @Test void subtracts() { assertEquals(1, new Calc().sub(3, 2)); }',
    '}',
    '',
  ].join('\n'),
};

const ISSUE = {
  title: 'Calc.sub adds instead of subtracting',
  body: 'new Calc().sub(3, 2) returns 5; it should return 1 (CalcTest.subtracts fails).',
};

let origin: TempGitRepo | undefined;

before(async () => {
  if (mvn) origin = await makeOrigin(FILES);
});

after(async () => {
  await origin?.cleanup();
  await removeStateDir();
  await teardownEnv();
});

test(
  'a fresh clone: Maven resolves everything in setup, the red test is the baseline by name, the fix delivered',
  { skip: mvn ? false : 'mvn is not installed' },
  async () => {
    assert.ok(origin);
    const session = fixSession({
      name: 'calc',
      fix: { path: 'src/main/java/demo/Calc.java', old: BUGGY, new: RIGHT },
      testCommand: TEST_COMMAND,
    });
    const run = await runOnFreshClone({ origin, issue: ISSUE, session });
    assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
    assert.equal(run.result?.outcome, 'success', run.result?.reason);
    assert.deepEqual(await run.changedOnBranch(), ['src/main/java/demo/Calc.java']);
    const environment = (run.result?.environment ?? []).join('\n');
    assert.match(environment, /setup: `mvn -B dependency:go-offline` ran/);
    assert.match(environment, /setup: `mvn -B --fail-at-end .*` ran/);
    assert.match(environment, /preflight: tests: baseline .*demo\.CalcTest#subtracts/);
  },
);
