import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  classifyPreflight,
  EnvironmentCause,
  type PreflightVerdict,
} from '../../../src/activities/preflight/classify-preflight.js';
import { fixture } from '../conditions/fixtures.js';

const run = (stdout: string, exitCode: number | null = 1, kind = 'test', stderr = ''): PreflightVerdict =>
  classifyPreflight({ kind, exitCode, stdout, stderr });

function environment(verdict: PreflightVerdict): { reason: string; lines: readonly string[] } {
  assert.equal(verdict.verdict, 'environment-failure', JSON.stringify(verdict));
  return verdict as { reason: string; lines: readonly string[] };
}

test('exit 0 passes; a command that did not finish is an environment failure', () => {
  assert.deepEqual(run('ok', 0), { verdict: 'passing' });
  assert.match(environment(run('', null)).reason, /did not finish/);
});

test('named failing tests on the base become the baseline, for every runner', () => {
  const names = (name: string) => {
    const v = run(fixture(name));
    assert.equal(v.verdict, 'failing-tests-baseline', name);
    return v.verdict === 'failing-tests-baseline' ? v.failedTests.map((t) => t.name) : [];
  };
  assert.deepEqual(names('mocha.txt'), ['throws', 'math adds', 'math nested deep equal']);
  assert.deepEqual(names('pytest.txt').length, 3);
  assert.deepEqual(names('go-test.txt'), ['TestAdd', 'TestTable/positive', 'TestPanics']);
  assert.deepEqual(names('cargo-test.txt'), ['tests::adds', 'tests::asserts', 'tests::panics_with_message']);
  assert.deepEqual(names('node-test-tap.txt'), ['subtracts numbers', 'top level fails']);
  // JUnit report first, with no usable text.
  const junit = classifyPreflight({
    kind: 'test',
    exitCode: 1,
    stdout: '',
    stderr: '',
    reports: { junitXml: fixture('pytest-junit.xml') },
  });
  assert.equal(
    junit.verdict === 'failing-tests-baseline' && junit.failedTests[0]?.name,
    'tests/test_math.py::test_add',
  );
});

test('a missing runner, install or dependency is an environment failure with the lines that say so', () => {
  const npm = environment(run('\n> is-number@7.0.0 test\n> mocha\n\nsh: 1: mocha: not found\n'));
  assert.deepEqual(npm.lines, ['sh: 1: mocha: not found']);
  const python = environment(run('', 1, 'test', '/usr/bin/python3: No module named pytest\n'));
  assert.match(python.reason, /runner is not installed/);
  // pytest collecting a module whose import is missing (real output), text and JUnit.
  const collect = environment(run(fixture('pytest-collect-error.txt'), 2));
  assert.match(collect.reason, /dependency is missing: tests\/test_broken\.py/);
  assert.deepEqual(collect.lines, ['tests/test_broken.py', "ModuleNotFoundError: No module named 'notinstalled_pkg'"]);
  // mocha requiring an uninstalled package (real output): nothing named, a missing module.
  const mocha = environment(run('', 1, 'test', fixture('mocha-missing-dependency.txt')));
  assert.equal(mocha.reason, 'a dependency is missing');
  assert.equal(mocha.lines[0], " Exception during run: Error: Cannot find module 'chai'");
  assert.ok(!mocha.lines.some((l) => /^\s+at /.test(l)), 'no stack frames');
});

test('tests that cannot load or a crash without names are environment failures', () => {
  const build = fixture('go-test-build-failed.txt').split('\n').slice(0, 3).join('\n');
  const go = environment(run(build));
  assert.match(go.reason, /cannot be loaded: example\.com\/calc\/bad/);
  assert.match(go.lines.join('\n'), /cannot use "s"/);
  const cargo = environment(run(fixture('cargo-test-compile-error.txt'), 101));
  assert.match(cargo.reason, /rs \(lib test\)/);
  const conftest = environment(run(fixture('pytest-conftest-crash.txt'), 4));
  assert.match(conftest.reason, /looks like a crash/);
  assert.match(conftest.lines.join('\n'), /RuntimeError: conftest exploded/);
});

test('a test command failing with no failure named: the gate could not tell a fix from the base', () => {
  const unnamed = run('make: *** [Makefile:3: test] Error 1\n', 2);
  assert.equal(unnamed.verdict === 'environment-failure' && unnamed.cause, EnvironmentCause.UnnamedFailures);
  assert.deepEqual(environment(unnamed).lines, ['make: *** [Makefile:3: test] Error 1']);
  // The same output from a check (lint, type check) is a failing check, as before.
  assert.equal(run('make: *** [Makefile:3: lint] Error 1\n', 2, 'lint').verdict, 'failing-checks-baseline');
});

test('the lines shown go on past the first one when the output is coloured', () => {
  // Maven 3.8.7 on commons-cli (stranger run): the lines begin with colour codes.
  const enforcer = [
    '\u001b[0m\u001b[0m[ERROR] Failed to execute goal org.apache.maven.plugins:maven-enforcer-plugin:3.6.3:enforce (enforce-maven-version) on project commons-cli: ',
    '[ERROR] Rule 0: org.apache.maven.enforcer.rules.version.RequireMavenVersion failed with message:',
    '[ERROR] Detected Maven Version: 3.8.7 is not in the allowed range [3.9,).',
    '[ERROR] -> [Help 1]',
  ].join('\n');
  const lines = environment(run(enforcer)).lines;
  assert.ok(
    lines.includes('[ERROR] Detected Maven Version: 3.8.7 is not in the allowed range [3.9,).'),
    JSON.stringify(lines),
  );
});

test('a command that could not run, behind a wrapper too, for tests and checks alike', () => {
  const silent = classifyPreflight({
    kind: 'test',
    command: 'npm test --silent',
    exitCode: 254,
    stdout: '',
    stderr: '',
  });
  assert.equal(silent.verdict === 'environment-failure' && silent.cause, EnvironmentCause.CouldNotRun);
  assert.equal(silent.verdict === 'environment-failure' && silent.remedy, 'other-command');
  const make = classifyPreflight({
    kind: 'lint',
    command: 'make lint',
    exitCode: 2,
    stdout: fixture('make-error-127.txt'),
    stderr: '',
  });
  assert.equal(make.verdict === 'environment-failure' && make.cause, EnvironmentCause.CouldNotRun);
  assert.equal(make.verdict === 'environment-failure' && make.program, 'uv');
  assert.match(environment(make).reason, /Error 127|not found/);
});

test('a lint or type check failing on the base with diagnostics is a baseline, not an environment failure', () => {
  const lint = run(fixture('eslint-stylish.txt'), 1, 'lint');
  assert.equal(lint.verdict, 'failing-checks-baseline');
  assert.ok(lint.verdict === 'failing-checks-baseline' && lint.lines.some((l) => /no-unused-vars/.test(l)));
  assert.match(environment(run('', 127, 'typeCheck', 'bash: tsc: command not found\n')).reason, /not found/);
});

test("yarn classic's own lines around a script are not what the stop shows", () => {
  // memoize-one (stranger run): yarn test → yarn jest, each yarn adding its lines; stderr comes first.
  const lines = environment(
    run(
      "yarn run v1.22.22\nwarning You don't appear to have an internet connection. Try the --offline flag to use the cache for registry queries.\n$ yarn jest\n$ /repo/node_modules/.bin/jest\nSetup script crashed: cannot reach the fixture server\n  at setup (jest.setup.js:3)\n$ node scripts/report.js\n",
      1,
      'test',
      'error Command failed with exit code 1.\ninfo Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.\nerror Command failed with exit code 1.\n',
    ),
  ).lines;
  assert.deepEqual(lines, ['Setup script crashed: cannot reach the fixture server', 'at setup (jest.setup.js:3)']);
});

test('exit 0 with failing tests named is red on the base, as the gate judges the branch; a test named failing then passing (rerun) is not', () => {
  const forged = run('TAP version 13\nnot ok 1 - adds\n  ---\n  ...\n# fail 1\n', 0);
  assert.equal(forged.verdict, 'failing-tests-baseline', JSON.stringify(forged));
  assert.deepEqual(forged.verdict === 'failing-tests-baseline' ? forged.failedTests.map((t) => t.name) : [], ['adds']);
  assert.deepEqual(run('--- FAIL: TestAdds (0.00s)\n--- PASS: TestAdds (0.00s)\nok  \texample.com/m\t0.01s\n', 0), {
    verdict: 'passing',
  });
  assert.deepEqual(run('not ok 1 - adds\n', 0, 'lint'), { verdict: 'passing' }, 'a check that runs no tests');
});
