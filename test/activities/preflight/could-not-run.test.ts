/**
 * "The command could not run" told from "tests ran and some failed", on output captured
 * on a real machine (test/fixtures/validator-output/): npm, pnpm and yarn without a
 * package.json, make turning a missing program's 127 into exit 2, a script whose
 * interpreter is missing, tox and uv failing to spawn, Maven offline without a plugin or
 * a dependency, Gradle offline; and, on the other side, wrappers around tests that ran
 * and failed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { couldNotRun, Remedy, type CouldNotRun } from '../../../src/activities/preflight/could-not-run.js';
import { fixture } from '../conditions/fixtures.js';

const run = (command: string, exitCode: number, output: string, stderr = ''): CouldNotRun | undefined =>
  couldNotRun({ command, exitCode, stdout: output, stderr });

function cannot(result: CouldNotRun | undefined): CouldNotRun {
  assert.ok(result !== undefined, 'expected "could not run"');
  return result;
}

test('exit 127 and 126 are "could not run" whatever the output, naming the program', () => {
  const sh = cannot(run("sh -c 'nonexistent-cmd'", 127, '', 'sh: 1: nonexistent-cmd: not found\n'));
  assert.equal(sh.seen, 'a program it runs was not found');
  assert.equal(sh.program, 'nonexistent-cmd');
  assert.deepEqual(sh.lines, ['sh: 1: nonexistent-cmd: not found']);
  const bash = cannot(run('nonexistent-cmd --x', 127, '', 'bash: line 1: nonexistent-cmd: command not found\n'));
  assert.equal(bash.program, 'nonexistent-cmd');
  const silent = cannot(run('CI=1 vitest run', 127, ''));
  assert.equal(silent.program, 'vitest', 'the first word after assignments, when the output says nothing');
  assert.deepEqual(silent.lines, []);
  assert.equal(cannot(run('cd sub && vitest run', 127, '')).program, undefined, 'not `cd`');
  const interpreter = cannot(run('./run.py', 127, '', fixture('env-missing-interpreter.txt')));
  assert.equal(interpreter.program, 'nonexistent-interp');
  assert.match(cannot(run('./run.sh', 126, '', 'sh: 1: ./run.sh: Permission denied\n')).seen, /not executable/);
});

test('npm without a package.json: exit 254, silent or not; pnpm and yarn say so in words', () => {
  const silent = cannot(run('npm test --silent', 254, ''));
  assert.match(silent.seen, /usually package\.json \(ENOENT\)/);
  assert.equal(silent.remedy, Remedy.OtherCommand);
  const loud = cannot(run('npm test', 254, '', fixture('npm-no-package-json.txt')));
  assert.match(loud.lines.join('\n'), /Could not read package\.json/);
  const exit1 = cannot(run('npm run check', 1, fixture('npm-no-package-json.txt')));
  assert.equal(exit1.seen, 'npm found no package.json here');
  assert.equal(
    cannot(run('pnpm test', 1, fixture('pnpm-no-package-json.txt'))).seen,
    'pnpm found no package.json here',
  );
  assert.equal(
    cannot(run('yarn test', 1, fixture('yarn-no-package-json.txt'))).seen,
    'yarn found no package.json here',
  );
  const script = cannot(run('npm run lint', 1, fixture('npm-missing-script.txt')));
  assert.deepEqual([script.seen, script.remedy], ['package.json has no such script', Remedy.OtherCommand]);
  assert.equal(run('make test', 254, ''), undefined, '254 means ENOENT only for npm');
});

test('make turns a missing program into exit 2 with "Error 127"; a missing target is "No rule"', () => {
  const direct = cannot(run('make test', 2, fixture('make-error-127.txt')));
  assert.equal(direct.program, 'uv');
  assert.equal(direct.remedy, Remedy.Install);
  assert.deepEqual(direct.lines, ['make: uv: No such file or directory', 'make: *** [Makefile:2: test] Error 127']);
  const viaShell = cannot(run('make test', 2, fixture('make-sh-not-found.txt')));
  assert.equal(viaShell.program, 'nonexistent-tool-xyz');
  const bare = cannot(run('make test', 2, 'make: *** [Makefile:4: test] Error 127\n'));
  assert.match(bare.seen, /Error 127/);
  const target = cannot(run('make test', 2, fixture('make-no-rule.txt')));
  assert.equal(target.remedy, Remedy.OtherCommand);
});

test('tox and uv that cannot spawn the program, tox without its Python', () => {
  assert.equal(cannot(run('tox', 2, fixture('tox-missing-command.txt'))).program, 'nonexistent-tool-xyz');
  assert.equal(cannot(run('uv run pytest', 2, fixture('uv-failed-to-spawn.txt'))).program, 'nonexistent-tool-xyz');
  assert.match(cannot(run('tox', 1, fixture('tox-missing-interpreter.txt'))).seen, /Python/);
});

test('Maven offline: an unresolved plugin or dependency, a failed transfer, Surefire without its provider', () => {
  const provider = cannot(run('mvn -B -o -q test', 1, fixture('maven-offline-surefire-provider.txt')));
  assert.equal(provider.remedy, Remedy.FetchInSetup);
  // The long [ERROR] line is shown from where it says what it could not resolve.
  assert.deepEqual(provider.lines, [
    '…Cannot access central (https://repo.maven.apache.org/maven2) in offline mode and the artifact org.apache.maven.surefire:surefire-junit-platform:jar:3.5.4 has not been downloaded from it before. -> [Help 1]',
  ]);
  for (const name of ['maven-offline-plugin.txt', 'maven-offline-dependency.txt', 'maven-transfer-failed.txt']) {
    const maven = cannot(run('mvn -B -o test', 1, fixture(name)));
    assert.equal(maven.remedy, Remedy.FetchInSetup, name);
    assert.ok(
      maven.lines.some((l) => l.startsWith('[ERROR]')),
      name,
    );
  }
});

test('Jest under the git dir sees no file; Maven older than the project needs: each with its own remedy', () => {
  // Jest 27 in a worktree under .git (memoize-one, stranger run), and Jest 29's shorter form.
  const jest = cannot(run('yarn test', 1, fixture('jest-27-worktree-under-git-dir.txt')));
  assert.equal(jest.remedy, Remedy.WorktreeRoot);
  assert.match(jest.seen, /ignores every path under a `\.git` directory/);
  const jest29 =
    'No tests found, exiting with code 1\nIn /repo/.git/agent/worktrees/issue-1\n  0 files checked across 1 project. Run with `--verbose` for more details.\n';
  assert.equal(cannot(run('npx jest', 1, jest29)).remedy, Remedy.WorktreeRoot);
  // Maven 3.8.7 on commons-cli: the enforcer's range, and a plugin's own prerequisite.
  const enforcer = cannot(
    run('mvn -B test', 1, '[ERROR] Detected Maven Version: 3.8.7 is not in the allowed range [3.9,).\n'),
  );
  assert.deepEqual([enforcer.remedy, enforcer.program], [Remedy.NewerMaven, '[3.9,)']);
  const rat =
    '[ERROR] Failed to execute goal org.apache.rat:apache-rat-plugin:0.18:check (rat-check) on project commons-cli: The plugin org.apache.rat:apache-rat-plugin:0.18 requires Maven version 3.9 -> [Help 1]\n';
  assert.deepEqual(
    [cannot(run('mvn -B test', 1, rat)).remedy, cannot(run('mvn -B test', 1, rat)).program],
    [Remedy.NewerMaven, '3.9'],
  );
});

// Written after the Gradle wrapper's and Gradle 8's output (no Gradle on the machine that captured the others).
test('Gradle offline: the wrapper downloading its distribution, a dependency with no cached version', () => {
  const wrapper = cannot(
    run('./gradlew --offline --continue --console=plain test', 1, fixture('gradle-wrapper-offline.txt')),
  );
  assert.equal(wrapper.remedy, Remedy.GradleOffline);
  assert.match(wrapper.seen, /wrapper had to download Gradle/);
  assert.deepEqual(wrapper.lines, ['Downloading https://services.gradle.org/distributions/gradle-8.10.2-bin.zip']);
  const dependency = cannot(run('gradle --offline test', 1, fixture('gradle-offline-dependency.txt')));
  assert.equal(dependency.remedy, Remedy.GradleOffline);
  assert.ok(dependency.lines.some((l) => l.includes('No cached version of org.junit.jupiter:junit-jupiter:5.10.2')));
});

test('tests that ran and failed are not "could not run", behind a wrapper or not', () => {
  assert.equal(run('make test', 2, fixture('make-pytest-failures.txt')), undefined);
  assert.equal(run('npm test', 1, fixture('npm-node-test-failures.txt')), undefined);
  assert.equal(run('mvn -B -o test', 1, fixture('maven-test-failures.txt')), undefined);
  assert.equal(run('npx mocha', 1, fixture('mocha.txt')), undefined);
  assert.equal(run('pytest', 1, fixture('pytest.txt')), undefined);
  assert.equal(run('make test', 2, 'make: *** [Makefile:3: test] Error 1\n'), undefined);
  assert.equal(run('npm test', 0, fixture('npm-no-package-json.txt')), undefined, 'exit 0 ran');
  // A named failing test whose own output mentions a missing program: the runner ran.
  const named = `${fixture('pytest.txt')}\nsh: 1: helper-tool: not found\n`;
  assert.equal(run('make test', 2, named), undefined);
});
