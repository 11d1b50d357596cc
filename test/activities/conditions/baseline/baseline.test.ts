/**
 * Baseline-aware test failures: the classifier alone, then the `tests` validator on a
 * real issue branch whose base already has a failing test (node's test runner in the
 * validators' sandbox), the cache, the modes, and the retry prompt's wording.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { classifyFailures } from '../../../../src/activities/conditions/baseline/classify-failures.js';
import { baselineCacheDir } from '../../../../src/activities/conditions/baseline/baseline-run.js';
import { runValidators } from '../../../../src/activities/conditions/run-validators.js';
import { createSpawnerCommandRunner } from '../../../../src/activities/process/spawner-command-runner.js';
import type { CommandRunner } from '../../../../src/activities/process/command-runner.js';
import type { TempGitRepo } from '../../../helpers/temp-git-repo.js';
import { CHECKS_STEP as step, retryPrompt, testsValidator, useBaselineState } from './baseline-fixtures.js';

const base = { commit: 'b'.repeat(40), command: 'npm test', exitCode: 1, failedTests: ['old broken'] };

test('classifier: regressions block; pre-existing only pass under ignore, block under require-fixed or when the issue names them', () => {
  const old = { name: 'old broken' };
  const fresh = { name: 'new broken', file: 'test/a.test.js' };
  const mixed = classifyFailures([old, fresh], base, 'ignore');
  assert.deepEqual([mixed.blocks, mixed.regressions, mixed.preExisting], [true, [fresh], [old]]);
  assert.match(mixed.reason, /1 regression\(s\).*1 failing on base too/);
  assert.equal(classifyFailures([old], base, 'ignore').blocks, false);
  assert.equal(classifyFailures([old], base, 'require-fixed').blocks, true);
  const named = classifyFailures([old], base, 'ignore', { issueText: 'The test "old broken" fails since v2; fix it.' });
  assert.deepEqual(
    [named.blocks, named.preExisting],
    [true, [{ ...old, blocks: 'named by the issue as "old broken"' }]],
  );
  assert.equal(classifyFailures([], base, 'ignore').blocks, true, 'unnamed failures cannot be excused');
});

const PASSING =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\ntest('adds', () => assert.equal(1 + 1, 2));\n";
// Red on the base because of the code under test (src/value.js), as a real bug is.
const BROKEN =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { value } from '../src/value.js';\ntest('old broken', () => assert.equal(value, 2));\n";
const WRONG_VALUE = 'export const value = 1;\n';
const RIGHT_VALUE = 'export const value = 2;\n';
const COMMAND = 'node --test test/';
const state = useBaselineState();

/** An issue branch cut from a main whose suite already has one failing test. */
async function branchWithRedBase(): Promise<TempGitRepo> {
  return state.issueBranch(7, {
    'package.json': '{ "type": "module" }\n',
    'test/adds.test.js': PASSING,
    'test/old.test.js': BROKEN,
    'src/value.js': WRONG_VALUE,
  });
}

function counting(): { runner: CommandRunner; calls: string[] } {
  const inner = createSpawnerCommandRunner();
  const calls: string[] = [];
  return { calls, runner: { run: (r) => (calls.push(r.cwd), inner.run(r)) } };
}

const tests = (baseline?: 'ignore' | 'require-fixed') => testsValidator(COMMAND, baseline);

/** The closure's claim that `old broken` failed before this branch. */
const OLD_BROKEN_CLAIMED = [{ test: 'old broken', reason: 'broken before this branch' }];

/** Judges the branch as the closure does when it classified `old broken` as already failing on the base. */
const judgeClaimingOldBroken = (repo: { readonly dir: string }, validators: ReturnType<typeof tests>) =>
  runValidators(
    { commands: createSpawnerCommandRunner() },
    { worktreePath: repo.dir, completionStep: step, validators, preExistingClaims: OLD_BROKEN_CLAIMED },
  );

test('a failure already on the base, classified unrelated, does not block; the base run is cached by commit and command', async () => {
  const repo = await branchWithRedBase();
  await repo.write({ 'src/feature.js': 'export const x = 1;\n' });
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'unrelated work');
  const { runner, calls } = counting();
  const classified = {
    worktreePath: repo.dir,
    completionStep: step,
    validators: tests('ignore'),
    preExistingClaims: OLD_BROKEN_CLAIMED,
  };
  const first = await runValidators({ commands: runner }, classified);
  assert.equal(first.passed, true, first.results[0]?.summary);
  assert.match(
    first.results[0]?.summary ?? '',
    /against the base \(baseline: ignore\): only failures already on base [0-9a-f]{12}: old broken, each classified unrelated by the closure/,
  );
  assert.deepEqual(
    (first.results[0]?.params['preExisting'] as { name: string }[]).map((t) => t.name),
    ['old broken'],
  );
  assert.equal(calls.length, 2, 'the worktree run, then the base run');
  assert.notEqual(calls[1], repo.dir, 'the base ran in its own temporary worktree');
  assert.equal((await readdir(baselineCacheDir())).filter((f) => f.endsWith('.json')).length, 1);
  assert.doesNotMatch(await repo.git('worktree', 'list'), /issue-agent-baseline/, 'the base worktree is removed');

  const second = await runValidators({ commands: runner }, classified);
  assert.equal(second.passed, true);
  assert.equal(calls.length, 3, 'the base result came from the cache');
});

test('a regression blocks and the retry prompt tells it from the failure already on base', async () => {
  const repo = await branchWithRedBase();
  await repo.write({ 'test/adds.test.js': PASSING.replace('1 + 1, 2', '1 + 1, 3') });
  await repo.git('commit', '-qam', 'break adds');
  const report = await runValidators(
    { commands: createSpawnerCommandRunner() },
    { worktreePath: repo.dir, completionStep: step, validators: tests('ignore') },
  );
  assert.equal(report.passed, false);
  const result = report.results[0];
  assert.deepEqual(
    (result?.params['regressions'] as { name: string }[]).map((t) => t.name),
    ['adds'],
  );
  assert.deepEqual(
    (result?.params['preExisting'] as { name: string }[]).map((t) => t.name),
    ['old broken'],
  );
  assert.match(result?.summary ?? '', /1 regression\(s\)/);
  const prompt = await retryPrompt(report.results);
  // Each regression with its file and the assertion that failed.
  assert.match(
    prompt,
    /Regressions \(they pass on the base commit[^\n]*\n- adds \(\S*test\/adds\.test\.js\)\n```\n[^`]*2 !== 3[^`]*\n```\n/,
  );
  assert.match(
    prompt,
    /Already failing on the base commit [0-9a-f]{40} and still failing:\n- old broken \(\S*test\/old\.test\.js\): not blocking by itself, but your closing must fix it or classify it in `pre_existing_failures` as `\{ "test": "old broken", "unrelated": true, "reason": "..." \}`\n/,
  );
  assert.doesNotMatch(prompt, /^Failing tests:/m);
});

test('require-fixed and an issue naming the old failure both block; without baseline the old behaviour stays', async () => {
  const repo = await branchWithRedBase();
  const commands = createSpawnerCommandRunner();
  const strict = await runValidators(
    { commands },
    { worktreePath: repo.dir, completionStep: step, validators: tests('require-fixed') },
  );
  assert.equal(strict.passed, false);
  assert.match(strict.results[0]?.summary ?? '', /require-fixed/);
  const named = await runValidators(
    { commands },
    {
      worktreePath: repo.dir,
      completionStep: step,
      validators: tests('ignore'),
      issueText: 'Fix the "old broken" test',
    },
  );
  assert.equal(named.passed, false);
  assert.match(named.results[0]?.summary ?? '', /still blocking: old broken \(named by the issue as "old broken"\)/);
  const plain = await runValidators(
    { commands },
    { worktreePath: repo.dir, completionStep: step, validators: tests() },
  );
  assert.equal(plain.passed, false);
  assert.equal(plain.results[0]?.params['preExisting'], undefined);
});

test('a passing run names the tests it fixed since the measured base; an unmeasured base is not run for it', async () => {
  const repo = await branchWithRedBase();
  const { runner, calls } = counting();
  await repo.write({ 'src/value.js': RIGHT_VALUE });
  await repo.git('commit', '-qam', 'fix old broken');
  const unmeasured = await runValidators(
    { commands: runner },
    { worktreePath: repo.dir, completionStep: step, validators: tests('ignore') },
  );
  assert.equal(unmeasured.passed, true);
  assert.equal(unmeasured.results[0]?.params['fixed'], undefined);
  assert.equal(calls.length, 1, 'the base was not run for a passing command');
  await repo.git('checkout', '-q', 'HEAD~1', '--', 'src/value.js');
  const measured = await runValidators(
    { commands: runner },
    { worktreePath: repo.dir, completionStep: step, validators: tests('ignore') },
  );
  assert.equal(measured.passed, false, 'the old failure, unclassified, measured the base');
  await repo.git('checkout', '-q', 'HEAD', '--', 'src/value.js');
  const fixed = await runValidators(
    { commands: runner },
    { worktreePath: repo.dir, completionStep: step, validators: tests('ignore') },
  );
  assert.equal(fixed.passed, true, fixed.results[0]?.summary);
  assert.match(fixed.results[0]?.summary ?? '', /passed \(exit code 0\); fixed since base [0-9a-f]{12}: old broken$/);
  assert.deepEqual(fixed.results[0]?.params['fixed'], [{ name: 'old broken' }]);
});

test('a branch that makes the tests pass by running fewer of them is refused (tests-not-run), with its retry prompt', async () => {
  const repo = await branchWithRedBase();
  const { runner } = counting();
  const run = () =>
    runValidators({ commands: runner }, { worktreePath: repo.dir, completionStep: step, validators: tests('ignore') });
  // The base is measured (as the preflight does): 2 tests ran there, 1 failed.
  const red = await run();
  assert.equal(red.passed, false);
  // The cheat: the failing test file goes; the command exits 0, no failure is named.
  await repo.git('rm', '-q', 'test/old.test.js');
  await repo.git('commit', '-qm', 'drop the broken test');
  const cheat = await run();
  const result = cheat.results[0];
  assert.equal(cheat.passed, false, result?.summary);
  assert.equal(result?.failurePattern, 'tests-not-run');
  assert.match(
    result?.summary ?? '',
    /exited 0, but fewer tests ran than on the base commit [0-9a-f]{12}: 1 now, 2 there/,
  );
  assert.equal(result?.params['testsRun'], 1);
  assert.equal(result?.params['testsRunOnBase'], 2);
  const prompt = await retryPrompt(cheat.results);
  assert.match(prompt, /the tests did not run/);
  assert.match(prompt, /only 1 tests ran, where 2 ran on the base commit [0-9a-f]{40}/);
});

test('tests red on the base made to pass by changing only the tests are refused (fixed-in-tests-only), also when the issue names the test file, unless it is labelled agent:tests-only', async () => {
  const repo = await branchWithRedBase();
  const run = (issueText?: string, issueLabels?: string[]) =>
    runValidators(
      { commands: createSpawnerCommandRunner() },
      {
        worktreePath: repo.dir,
        completionStep: step,
        validators: tests('ignore'),
        ...(issueText === undefined ? {} : { issueText }),
        ...(issueLabels === undefined ? {} : { issueLabels }),
      },
    );
  assert.equal((await run()).passed, false, 'the base is measured: old broken fails there');
  // The cheat: the expected value rewritten in place (no test deleted, none skipped: the count holds).
  await repo.write({ 'test/old.test.js': BROKEN.replace('assert.equal(value, 2)', 'assert.equal(value, 1)') });
  await repo.git('commit', '-qam', 'expect what the code does');
  const cheat = await run('The value is wrong: old broken fails.');
  const result = cheat.results[0];
  assert.equal(cheat.passed, false, result?.summary);
  assert.equal(result?.failurePattern, 'fixed-in-tests-only');
  assert.match(
    result?.summary ?? '',
    /exited 0, but the tests red on the base commit [0-9a-f]{12} no longer fail \(old broken\) and the branch changed only test files \(test\/old\.test\.js\)/,
  );
  assert.deepEqual(result?.params['testFiles'], ['test/old.test.js']);
  const prompt = await retryPrompt(cheat.results);
  assert.match(prompt, /only the tests changed/);
  assert.match(prompt, /- `test\/old\.test\.js`/);
  // A bug report names the failing test's file as often as not: that is no waiver.
  const named = await run('The test in test/old.test.js fails: old broken.');
  assert.equal(named.results[0]?.failurePattern, 'fixed-in-tests-only', named.results[0]?.summary);
  // An issue about the test itself is labelled so by whoever triages it: then the change is what it asks for.
  const asked = await run('The expected value in test/old.test.js is wrong: it should expect 1.', ['agent:tests-only']);
  assert.equal(asked.passed, true, asked.results[0]?.summary);
  // A real fix with the same test change: the code under test changed too.
  await repo.write({ 'src/value.js': RIGHT_VALUE, 'test/old.test.js': BROKEN });
  await repo.git('commit', '-qam', 'fix the value');
  assert.equal((await run()).passed, true);
});

test('a test script made to exit 0 while its runner still names the failing test is judged by the failures, never told as fixed, labelled agent:tests-only or not', async () => {
  const repo = await state.issueBranch(9, {
    'package.json': '{ "type": "module" }\n',
    'run-tests.sh': `${COMMAND}\n`,
    'test/adds.test.js': PASSING,
    'test/old.test.js': BROKEN,
    'src/value.js': WRONG_VALUE,
  });
  const run = (issueLabels: string[]) =>
    runValidators(
      { commands: createSpawnerCommandRunner() },
      {
        worktreePath: repo.dir,
        completionStep: step,
        validators: testsValidator('sh run-tests.sh', 'ignore'),
        issueText: 'The value is wrong: old broken fails.',
        issueLabels,
      },
    );
  assert.equal((await run([])).passed, false, 'the base is measured: old broken fails there');
  // The cheat: the runner still prints `not ok … old broken`, the script's exit status says it passed.
  await repo.write({ 'run-tests.sh': `${COMMAND} || true\n` });
  await repo.git('commit', '-qam', 'tests: do not fail the build');
  for (const labels of [[], ['agent:tests-only']]) {
    const cheat = await run(labels);
    const result = cheat.results[0];
    assert.equal(cheat.passed, false, `${labels.join(',')}: ${result?.summary}`);
    assert.match(
      result?.summary ?? '',
      /`sh run-tests\.sh` exited 0, but the test runner names 1 failing test\(s\): the exit status does not say whether the tests passed/,
    );
    assert.match(result?.summary ?? '', /old broken/);
    assert.doesNotMatch(result?.summary ?? '', /fixed since base/);
    assert.doesNotMatch(JSON.stringify(result?.params['fixed'] ?? []), /old broken/);
  }
});

test("a repository whose own test script exits 0 over a failing test: that failure is the base's, measured the same way, and classified it does not block", async () => {
  const repo = await state.issueBranch(10, {
    'package.json': '{ "type": "module" }\n',
    'run-tests.sh': `${COMMAND} || true\n`,
    'test/adds.test.js': PASSING,
    'test/old.test.js': BROKEN,
    'src/value.js': WRONG_VALUE,
  });
  await repo.write({ 'src/feature.js': 'export const x = 1;\n' });
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'unrelated work');
  const report = await judgeClaimingOldBroken(repo, testsValidator('sh run-tests.sh', 'ignore'));
  assert.equal(report.passed, true, report.results[0]?.summary);
  assert.match(
    report.results[0]?.summary ?? '',
    /`sh run-tests\.sh` exited 0 naming failing tests, accepted against the base \(baseline: ignore\): only failures already on base [0-9a-f]{12}: old broken, each classified unrelated by the closure/,
  );
});

test('the classification is said of the failures left on the base, not of the tests the branch fixed', async () => {
  const repo = await state.issueBranch(8, {
    'package.json': '{ "type": "module" }\n',
    'test/old.test.js': BROKEN,
    'test/other.test.js': BROKEN.replace('old broken', 'other broken').replace('src/value.js', 'src/other.js'),
    'src/value.js': WRONG_VALUE,
    'src/other.js': WRONG_VALUE,
  });
  await repo.write({ 'src/other.js': RIGHT_VALUE });
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'fix other');
  const result = await judgeClaimingOldBroken(repo, tests('ignore'));
  assert.equal(result.passed, true, result.results[0]?.summary);
  assert.match(
    result.results[0]?.summary ?? '',
    /only failures already on base [0-9a-f]{12}: old broken, each classified unrelated by the closure; fixed since base: other broken$/m,
  );
});
