/**
 * The no-op guard's condition (`branch-changed`) through runValidators on real issue
 * branches whose base is recorded as prepareWorkspace records it: no commit, commits that
 * net to no change, a real change; with and without the closure's no-change declaration;
 * and the default agent's retry prompt it leads to.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runValidators } from '../../../../src/activities/conditions/run-validators.js';
import { judgeBranchChange } from '../../../../src/activities/conditions/branch-change/branch-changed-validator.js';
import type { NoChangeDeclaration } from '../../../../src/contracts/no-change.js';
import type { ValidationReport } from '../../../../src/contracts/activities.js';
import type { TempGitRepo } from '../../../helpers/temp-git-repo.js';
import { issueBranchCheck } from '../issue-branch-check.js';

const { noCommands, step, retryPrompt, ...repos } = issueBranchCheck('branch-changed');
const validators = { 'branch-changed': { type: 'branch-changed', failurePattern: 'no-change' } } as const;
const declared: NoChangeDeclaration = { reason: 'already-fixed', evidence: 'npm test passes on the base: 3 passing' };

const issueBranch = (): Promise<TempGitRepo> => repos.issueBranch({ 'src/sum.js': 'exports.sum = (a, b) => a - b;\n' });

const check = (repo: TempGitRepo, noChange?: NoChangeDeclaration): Promise<ValidationReport> =>
  runValidators(
    { commands: noCommands },
    { worktreePath: repo.dir, completionStep: step, validators, ...(noChange ? { noChange } : {}) },
  );

test('a branch with no commit of its own fails with the no-change pattern; the retry prompt says nothing changed', async () => {
  const repo = await issueBranch();
  const report = await check(repo);
  assert.equal(report.passed, false);
  assert.equal(report.unchanged, undefined);
  const result = report.results[0];
  assert.equal(result?.failurePattern, 'no-change');
  assert.equal(result?.unrecoverable, false);
  assert.equal(result?.params['commits'], 0);
  assert.match(result?.summary ?? '', /nothing changed: the branch has no commit of its own/);

  const prompt = await retryPrompt(report.results);
  assert.equal(prompt.source, 'steps/retry/issue/f_failed_no-change.md');
  assert.match(prompt.text, /completion check failed: nothing changed/);
  assert.match(prompt.text, /no_change/, 'the prompt says how to declare that no change is needed');
  assert.doesNotMatch(prompt.text, /declared unchanged/);
});

test('commits that net to no change count as no change', async () => {
  const repo = await issueBranch();
  await repo.write({ 'src/sum.js': 'exports.sum = (a, b) => a + b;\n' });
  await repo.git('commit', '-qam', 'fix');
  await repo.git('revert', '--no-edit', 'HEAD');
  const report = await check(repo);
  assert.equal(report.passed, false);
  assert.equal(report.results[0]?.params['commits'], 2);
  assert.match(report.results[0]?.summary ?? '', /2 commit\(s\) net to no change/);
});

test('a committed change passes; uncommitted edits are not the branch’s', async () => {
  const repo = await issueBranch();
  await repo.write({ 'src/sum.js': 'exports.sum = (a, b) => a + b;\n' });
  assert.equal((await check(repo)).passed, false, 'an uncommitted edit is no change of the branch');
  await repo.git('commit', '-qam', 'fix');
  // main moves on after the branch was cut: the merge-base, not main's tip, is the base.
  await repo.git('checkout', '-q', 'main');
  await repo.write({ 'other.md': 'later\n' });
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'later on main');
  await repo.git('checkout', '-q', 'agent/issue-1');
  const report = await check(repo);
  assert.equal(report.passed, true, report.results[0]?.summary);
  assert.match(report.results[0]?.summary ?? '', /1 commit\(s\) changing 1 file\(s\): src\/sum\.js/);
});

test('a declaration on an unchanged branch passes and is confirmed in the report', async () => {
  const repo = await issueBranch();
  const base = await repo.git('rev-parse', 'main');
  const report = await check(repo, declared);
  assert.equal(report.passed, true);
  assert.deepEqual(report.unchanged, { declaration: declared, baseCommit: base });
  assert.match(report.results[0]?.summary ?? '', /the closure declared already-fixed/);
});

test('a declaration on a branch with changes fails, and the retry prompt asks to choose', async () => {
  const repo = await issueBranch();
  await repo.write({ 'src/sum.js': 'exports.sum = (a, b) => a + b;\n' });
  await repo.git('commit', '-qam', 'fix');
  const report = await check(repo, declared);
  assert.equal(report.passed, false);
  assert.equal(report.unchanged, undefined);
  assert.equal(report.results[0]?.params['declared'], 'already-fixed');
  const prompt = await retryPrompt(report.results);
  assert.match(prompt.text, /changes on a branch declared unchanged/);
  assert.match(prompt.text, /leave `no_change` out of your answer/);
});

test('no recorded base: nothing can be compared, so the check fails unrecoverable and confirms no declaration', async () => {
  const repo = await repos.plainRepo();
  for (const declaration of [declared, undefined]) {
    const report = await check(repo, declaration);
    assert.equal(report.passed, false);
    assert.equal(report.unchanged, undefined);
    assert.equal(report.results[0]?.unrecoverable, true);
    assert.match(report.results[0]?.summary ?? '', /no base commit to judge against.*agentBase.*`base` param/);
  }
});

test('judgeBranchChange: a submodule-only change is a change; params name base, commits and files', () => {
  const options = { validator: 'branch-changed', worktreePath: '/nowhere', params: {}, failurePattern: 'no-change' };
  const diff = { base: 'a'.repeat(40), commits: 1, sameTree: false, files: [] };
  const judged = judgeBranchChange(diff, options);
  assert.equal(judged.result.passed, true);
  assert.match(judged.result.summary, /a submodule pointer/);
  const unchanged = judgeBranchChange({ ...diff, sameTree: true }, options);
  assert.equal(unchanged.result.passed, false);
  assert.deepEqual(unchanged.result.params, { baseCommit: diff.base, commits: 1, files: [] });
});
