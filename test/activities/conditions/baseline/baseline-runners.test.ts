/**
 * The baseline split for runners other than node's: pytest run for real (names from its
 * JUnit report, on the issue branch and on the base alike), and the names of go, cargo
 * and mocha failures matched between a base output and a later one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyFailures } from '../../../../src/activities/conditions/baseline/classify-failures.js';
import { runValidators } from '../../../../src/activities/conditions/run-validators.js';
import { parseTestFailures } from '../../../../src/activities/conditions/test-reports/parse-test-failures.js';
import { createSpawnerCommandRunner } from '../../../../src/activities/process/spawner-command-runner.js';
import { fixture } from '../fixtures.js';
import { CHECKS_STEP as step, testsValidator, useBaselineState } from './baseline-fixtures.js';

const state = useBaselineState();

const TESTS =
  'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n\n' +
  'def test_old():\n    assert add(1, 1) == 3, "was always wrong"\n';
// The text is thrown away: names can only come from the JUnit report.
const validators = testsValidator('python3 -m pytest -q > /dev/null 2>&1', 'ignore');

test('pytest: a failure already on the base is excused once classified, a regression is named with its assertion', async () => {
  const repo = await state.issueBranch(9, {
    '.gitignore': '__pycache__/\n',
    'pytest.ini': '[pytest]\npythonpath = .\naddopts = -p no:cacheprovider\n',
    'calc.py': 'def add(a, b):\n    return a + b\n',
    'tests/test_calc.py': TESTS,
  });
  const commands = createSpawnerCommandRunner();

  await repo.write({ 'README.md': 'unrelated\n' });
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'unrelated');
  const claims = [{ test: 'tests/test_calc.py::test_old', reason: 'red before this change' }];
  const checked = { worktreePath: repo.dir, completionStep: step, validators, preExistingClaims: claims };
  const excused = await runValidators({ commands }, checked);
  assert.equal(excused.passed, true, excused.results[0]?.summary);
  assert.match(
    excused.results[0]?.summary ?? '',
    /only failures already on base [0-9a-f]{12}: tests\/test_calc\.py::test_old/,
  );

  // A different size from the working add: within the same second as the first run, Python
  // would otherwise take its cached bytecode (keyed by the source's mtime in seconds and size).
  await repo.write({ 'calc.py': 'def add(a, b):\n    return a - b  # broken\n' });
  await repo.git('commit', '-qam', 'break add');
  const broken = await runValidators({ commands }, checked);
  assert.equal(broken.passed, false);
  const params = broken.results[0]?.params ?? {};
  assert.deepEqual(params['regressions'], [
    {
      name: 'tests/test_calc.py::test_add',
      file: 'tests/test_calc.py',
      excerpt: 'assert -1 == 5\n +  where -1 = add(2, 3)\ntests/test_calc.py:4: AssertionError',
    },
  ]);
  assert.deepEqual(
    (params['preExisting'] as { name: string }[]).map((t) => t.name),
    ['tests/test_calc.py::test_old'],
  );
});

test('go, cargo and mocha: names from a base output match the same failures later', () => {
  const cases: [string, string][] = [
    ['go-test.txt', 'TestTable/positive'],
    ['cargo-test.txt', 'tests::asserts'],
    ['mocha.txt', 'math nested deep equal'],
  ];
  for (const [name, old] of cases) {
    const now = parseTestFailures(fixture(name));
    const base = { commit: 'b'.repeat(40), command: 'test', exitCode: 1, failedTests: [old] };
    const split = classifyFailures(now, base, 'ignore');
    assert.deepEqual(
      split.preExisting.map((t) => t.name),
      [old],
      name,
    );
    assert.equal(split.regressions.length, now.length - 1, name);
    assert.equal(split.blocks, true);
    const onlyOld = classifyFailures(
      now.filter((t) => t.name === old),
      base,
      'ignore',
    );
    assert.equal(onlyOld.blocks, false, name);
  }
});
