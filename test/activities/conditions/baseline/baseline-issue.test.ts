/**
 * The false green of issue 37, on a real pytest repository whose last commit broke a
 * test: the `tests` validator (baseline `ignore`) must not excuse a failure already on
 * the base when the issue names it by a short name, or when the branch changed its
 * file; the retry prompt says which failure blocks and why. A failure neither named nor
 * touched is excused only once the closure classified it as unrelated, with a reason;
 * until then the retry prompt names it and asks for that classification.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runValidators } from '../../../../src/activities/conditions/run-validators.js';
import { createSpawnerCommandRunner } from '../../../../src/activities/process/spawner-command-runner.js';
import type { TempGitRepo } from '../../../helpers/temp-git-repo.js';
import { CHECKS_STEP as step, retryPrompt, testsValidator, useBaselineState } from './baseline-fixtures.js';

const state = useBaselineState();
const validators = testsValidator('python3 -m pytest -q', 'ignore');
const commands = createSpawnerCommandRunner();

/** main: `six()` broken by its last commit, so tests/test_six.py::test_b fails on the base. */
async function brokenByLastCommit(issue: number): Promise<TempGitRepo> {
  const repo = await state.issueBranch(issue, {
    '.gitignore': '__pycache__/\n',
    'pytest.ini': '[pytest]\npythonpath = .\naddopts = -p no:cacheprovider\n',
    'six.py': 'def six():\n    return 6\n',
    'tests/test_six.py':
      'from six import six\n\ndef test_a():\n    assert 1 + 1 == 2\n\ndef test_b():\n    assert six() == 6\n',
  });
  await repo.git('checkout', '-q', 'main');
  await repo.write({ 'six.py': 'def six():\n    return 7  # the last commit\n' });
  await repo.git('commit', '-qam', 'refactor six');
  await repo.git('checkout', '-q', `agent/issue-${issue}`);
  await repo.git('merge', '-q', '--ff-only', 'main');
  return repo;
}

function run(repo: TempGitRepo, issueText: string) {
  return runValidators({ commands }, { worktreePath: repo.dir, completionStep: step, validators, issueText });
}

test('an issue naming the failing test by its short name blocks a branch that changed nothing', async () => {
  const repo = await brokenByLastCommit(24);
  const report = await run(repo, 'Tests broken\n\ntest_b in test_six.py fails since the last commit.');
  assert.equal(report.passed, false, report.results[0]?.summary);
  const result = report.results[0];
  assert.match(
    result?.summary ?? '',
    /against the base \(baseline: ignore\): failing on base [0-9a-f]{12} and still blocking: tests\/test_six\.py::test_b \(named by the issue as "test_b"\)/,
  );
  assert.deepEqual(
    (result?.params['preExisting'] as { name: string; blocks?: string }[]).map((t) => [t.name, t.blocks]),
    [['tests/test_six.py::test_b', 'named by the issue as "test_b"']],
  );
  const prompt = await retryPrompt(report.results);
  assert.match(
    prompt,
    /Already failing on the base commit [0-9a-f]{40} and still failing:\n- tests\/test_six\.py::test_b \(tests\/test_six\.py\): BLOCKS, named by the issue as "test_b"; this change must fix it\n```\n[^`]*assert 7 == 6/,
  );
  assert.doesNotMatch(prompt, /not caused by this change/);
});

test('a branch that changed the failing test file cannot call the failure pre-existing', async () => {
  const repo = await brokenByLastCommit(25);
  const text = (await readFile(join(repo.dir, 'tests/test_six.py'), 'utf8')).replace('== 6', '== 6, "six"');
  await repo.write({ 'tests/test_six.py': text });
  await repo.git('commit', '-qam', 'touch the test');
  const report = await run(repo, 'The test suite fails since the last commit.');
  assert.equal(report.passed, false, report.results[0]?.summary);
  assert.match(
    report.results[0]?.summary ?? '',
    /still blocking: tests\/test_six\.py::test_b \(its file tests\/test_six\.py was changed by this branch\)/,
  );
  assert.match(await retryPrompt(report.results), /BLOCKS, its file tests\/test_six\.py was changed by this branch/);
});

test('neither named nor touched, not classified: the retry prompt names the test and asks for its classification', async () => {
  const repo = await brokenByLastCommit(26);
  const report = await run(repo, 'The test suite fails since the last commit.');
  assert.equal(report.passed, false, report.results[0]?.summary);
  const result = report.results[0];
  assert.equal(result?.failurePattern, 'pre-existing-unclassified');
  assert.match(
    result?.summary ?? '',
    /against the base \(baseline: ignore\): failing on base [0-9a-f]{12} too and not classified by the closure as unrelated: tests\/test_six\.py::test_b/,
  );
  const prompt = await retryPrompt(report.results);
  assert.match(prompt, /tests failing on the base not accounted for/);
  assert.match(prompt, /- tests\/test_six\.py::test_b \(tests\/test_six\.py\)\n```\n[^`]*assert 7 == 6/);
  assert.match(prompt, /`pre_existing_failures`/);
  assert.doesNotMatch(prompt, /not caused by this change/);
});

test('neither named nor touched, classified unrelated by its short name: excused, the claim kept in the params', async () => {
  const repo = await brokenByLastCommit(27);
  const report = await runValidators(
    { commands },
    {
      worktreePath: repo.dir,
      completionStep: step,
      validators,
      issueText: 'The test suite fails since the last commit.',
      preExistingClaims: [{ test: 'test_b', reason: 'six() is another issue' }],
    },
  );
  assert.equal(report.passed, true, report.results[0]?.summary);
  assert.match(
    report.results[0]?.summary ?? '',
    /only failures already on base [0-9a-f]{12}: tests\/test_six\.py::test_b, each classified unrelated by the closure/,
  );
  assert.deepEqual(
    (report.results[0]?.params['preExisting'] as { name: string; unrelated?: string }[]).map((t) => [
      t.name,
      t.unrelated,
    ]),
    [['tests/test_six.py::test_b', 'six() is another issue']],
  );
});
