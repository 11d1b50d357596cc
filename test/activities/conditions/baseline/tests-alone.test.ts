/**
 * A branch that changed code and tests: the tests red on the base are told as fixed only
 * when they fail with this branch's tests on the base's code (the code fixed them). Real
 * branches, node's test runner, the `tests` validator with a baseline; a worker killed
 * while the code is at the base, and the cache.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { withFilesAtBase, worktreeTree } from '../../../../src/activities/conditions/baseline/code-at-base.js';
import { promisify } from 'node:util';
import { runValidators } from '../../../../src/activities/conditions/run-validators.js';
import { createSpawnerCommandRunner } from '../../../../src/activities/process/spawner-command-runner.js';
import type { CommandRunner } from '../../../../src/activities/process/command-runner.js';
import type { TempGitRepo } from '../../../helpers/temp-git-repo.js';
import { CHECKS_STEP as step, retryPrompt, testsValidator, useBaselineState } from './baseline-fixtures.js';

const BROKEN =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { value } from '../src/value.js';\ntest('old broken', () => assert.equal(value, 2));\n";
const REWRITTEN = BROKEN.replace('assert.equal(value, 2)', 'assert.equal(value, 1)');
const WRONG_VALUE = 'export const value = 1;\n';
const state = useBaselineState();

async function redBase(): Promise<TempGitRepo> {
  return state.issueBranch(7, {
    'package.json': '{ "type": "module" }\n',
    'test/old.test.js': BROKEN,
    'src/value.js': WRONG_VALUE,
  });
}

function counting(): { runner: CommandRunner; calls: string[] } {
  const inner = createSpawnerCommandRunner();
  const calls: string[] = [];
  return { calls, runner: { run: (r) => (calls.push(r.command), inner.run(r)) } };
}

/** A process that swaps src/value.js to the base and dies with it there. */
async function killedMidSwap(repo: TempGitRepo, tree: string): Promise<void> {
  const script = `
    import { withFilesAtBase } from './src/activities/conditions/baseline/code-at-base.ts';
    await withFilesAtBase({ worktreePath: process.argv[1], base: 'main', tree: process.argv[2], paths: ['src/value.js'] },
      () => process.kill(process.pid, 'SIGKILL'));`;
  await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script, repo.dir, tree],
    {
      env: process.env,
    },
  ).catch((error: { signal?: string }) => assert.equal(error.signal, 'SIGKILL'));
}

const judge = (repo: TempGitRepo, runner: CommandRunner = createSpawnerCommandRunner()) =>
  runValidators(
    { commands: runner },
    { worktreePath: repo.dir, completionStep: step, validators: testsValidator('node --test test/', 'ignore') },
  );

/** Judges the branch and asserts the fixed-in-tests-only refusal with `summary`; returns what a test asserts next. */
async function refusedAsTestsOnly(repo: TempGitRepo, summary: RegExp) {
  const { runner, calls } = counting();
  const verdict = await judge(repo, runner);
  const result = verdict.results[0];
  assert.equal(verdict.passed, false, result?.summary);
  assert.equal(result?.failurePattern, 'fixed-in-tests-only');
  assert.match(result?.summary ?? '', summary);
  return { verdict, result, calls };
}

test('the expected value rewritten beside a comment in the code: refused, and the code is back as the agent left it', async () => {
  const repo = await redBase();
  assert.equal((await judge(repo)).passed, false, 'the base is measured: old broken fails there');
  const commented = `// value: fixed\n${WRONG_VALUE}`;
  await repo.write({ 'test/old.test.js': REWRITTEN, 'src/value.js': commented, 'src/notes.js': '// new\n' });
  await repo.git('add', 'test/old.test.js', 'src/value.js');
  await repo.git('commit', '-qm', 'fix the value');
  const status = await repo.git('status', '--porcelain');
  const refusal = await refusedAsTestsOnly(
    repo,
    /no longer fail \(old broken\), and they pass as well with this branch's tests on the base's code \(src\/value\.js, src\/notes\.js as on the base\): the test changes made them pass \(test\/old\.test\.js\)/,
  );
  const { verdict: cheat, result, calls } = refusal;
  assert.deepEqual(result?.params['codeFiles'], ['src/value.js', 'src/notes.js']);
  assert.deepEqual(calls.length, 2, 'the validator run and the run on the base code');
  assert.equal(await readFile(`${repo.dir}/src/value.js`, 'utf8'), commented);
  assert.equal(await readFile(`${repo.dir}/src/notes.js`, 'utf8'), '// new\n', 'an untracked file is put back too');
  assert.equal(await repo.git('status', '--porcelain'), status);
  const prompt = await retryPrompt(cheat.results);
  assert.match(prompt, /pass as well when the code files below are put back as on the base/);
  assert.match(prompt, /- `src\/value\.js`/);
  // The same tree again: the answer is cached, the tests run once.
  const { runner: again, calls: second } = counting();
  assert.equal((await judge(repo, again)).passed, false);
  assert.equal(second.length, 1);
});

test("a loosened assertion beside a wrong change of the code: refused, as the base's version of the test still fails on the branch's code", async () => {
  const repo = await redBase();
  await judge(repo);
  const loosened = BROKEN.replace('assert.equal(value, 2)', 'assert.ok(value > 1.5)');
  await repo.write({ 'test/old.test.js': loosened, 'src/value.js': 'export const value = 1.75;\n' });
  await repo.git('commit', '-qam', 'fix the value');
  const refusal = await refusedAsTestsOnly(
    repo,
    /pass now \(old broken\) only as this branch changed them: with their base version \(test\/old\.test\.js as on the base\), this branch's code still fails them/,
  );
  const { verdict: cheat, result, calls } = refusal;
  assert.deepEqual(result?.params['failingWithBaseTests'], ['old broken']);
  assert.equal(calls.length, 3, 'the validator run, the run on the base code, the run with the base tests');
  assert.equal(
    await readFile(`${repo.dir}/test/old.test.js`, 'utf8'),
    loosened,
    'the test is back as the agent left it',
  );
  const prompt = await retryPrompt(cheat.results);
  assert.match(
    prompt,
    /with the test files below put back as on the base, the code of this branch still fails `old broken`/,
  );
  assert.match(prompt, /- `test\/old\.test\.js`/);
  assert.doesNotMatch(prompt, /Code files changed/);
});

test('a real fix that came with a changed and a new test passes: the tests stay red on the base code', async () => {
  const repo = await redBase();
  await judge(repo);
  const more =
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { value } from '../src/value.js';\ntest('is even', () => assert.equal(value % 2, 0));\n";
  await repo.write({
    'src/value.js': 'export const value = 2;\n',
    'test/old.test.js': `${BROKEN}// see #7\n`,
    'test/more.test.js': more,
  });
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'fix the value');
  const fixed = await judge(repo);
  assert.equal(fixed.passed, true, fixed.results[0]?.summary);
  assert.match(fixed.results[0]?.summary ?? '', /fixed since base [0-9a-f]{12}: old broken/);
  assert.equal(await readFile(`${repo.dir}/src/value.js`, 'utf8'), 'export const value = 2;\n');
});

test("a fix that only adds a test file: the base's tests are the ones that just ran, so they are not run again", async () => {
  const repo = await redBase();
  await judge(repo);
  const more =
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { value } from '../src/value.js';\ntest('is two', () => assert.equal(value, 2));\n";
  await repo.write({ 'src/value.js': 'export const value = 2;\n', 'test/more.test.js': more });
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'fix the value');
  const { runner, calls } = counting();
  const fixed = await judge(repo, runner);
  assert.equal(fixed.passed, true, fixed.results[0]?.summary);
  assert.equal(calls.length, 2, 'the validator run and the run on the base code only');
});

test('a worker killed while the code is at the base: the next validation puts the code back first', async () => {
  const repo = await redBase();
  await judge(repo);
  await repo.write({ 'src/value.js': 'export const value = 2;\n' });
  await repo.git('commit', '-qam', 'fix the value');
  const tree = (await repo.git('write-tree')).trim();
  await killedMidSwap(repo, tree);
  assert.equal(await readFile(`${repo.dir}/src/value.js`, 'utf8'), WRONG_VALUE, 'left at the base by the dead process');
  const after = await judge(repo);
  assert.equal(after.passed, true, after.results[0]?.summary);
  assert.equal(await readFile(`${repo.dir}/src/value.js`, 'utf8'), 'export const value = 2;\n');
  assert.equal(await repo.git('status', '--porcelain'), '');
  // A journal from a worktree since made again (HEAD elsewhere) is dropped, not applied.
  await killedMidSwap(repo, (await repo.git('write-tree')).trim());
  await repo.git('checkout', '-q', '--', 'src/value.js');
  await repo.write({ 'src/value.js': 'export const value = 2; // a new run\n' });
  await repo.git('commit', '-qam', 'a new run');
  assert.equal((await judge(repo)).passed, true);
  assert.equal(await readFile(`${repo.dir}/src/value.js`, 'utf8'), 'export const value = 2; // a new run\n');
});

test('files given a content of their own (Rust: the base code with the branch tests) are written with it, then put back', async () => {
  const repo = await redBase();
  await repo.write({ 'src/value.js': 'export const value = 2;\n', 'src/other.js': 'export const o = 1;\n' });
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'change');
  const tree = await worktreeTree(repo.dir);
  const seen = await withFilesAtBase(
    {
      worktreePath: repo.dir,
      base: 'main',
      tree,
      paths: ['src/value.js', 'src/other.js'],
      contents: { 'src/value.js': 'export const value = 3;\n' },
    },
    async () => [await readFile(`${repo.dir}/src/value.js`, 'utf8'), existsSync(`${repo.dir}/src/other.js`)],
  );
  assert.deepEqual(seen, ['export const value = 3;\n', false]);
  assert.equal(await readFile(`${repo.dir}/src/value.js`, 'utf8'), 'export const value = 2;\n');
  assert.equal(await readFile(`${repo.dir}/src/other.js`, 'utf8'), 'export const o = 1;\n');
  assert.equal(await repo.git('status', '--porcelain'), '');
});
