/**
 * Delivery through the whole run (real workflow, worker, git, offline model): the
 * default for local issues keeps the branch and never touches main; `merge` into a
 * main checkout the user is editing is refused, and the run fails with the reason and
 * how to merge instead of reporting success.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { runScenario } from '../helpers/run-scenario.js';

after(teardownEnv);

const SESSION = join(DEMO_DIR, 'session.json');
const git = (repo: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();

test('default delivery with local issues is branch: success, main unchanged, the branch and how to merge it reported', async () => {
  let mainBefore = '';
  const { result, repoPath } = await runScenario({
    session: SESSION,
    input: { delivery: undefined },
    during: async (_handle, _model, run) => {
      mainBefore = git(run.repoPath, 'rev-parse', 'main');
    },
  });
  assert.equal(result.outcome, 'success', result.reason);
  assert.equal(result.boundary?.delivery, 'branch');
  assert.equal(result.boundary?.mergeCommand, 'git merge agent/issue-1');
  assert.equal(git(repoPath, 'rev-parse', 'main'), mainBefore, 'main untouched');
  assert.match(git(repoPath, 'log', '--oneline', 'agent/issue-1'), /Fix #1: sum\(\) adds its operands/);
  assert.equal(git(repoPath, 'status', '--porcelain', '--untracked-files=no'), '');
});

test('merge into a main checkout with local changes: refused, nothing changed, the run fails with BOUNDARY_FAILED and how to merge', async () => {
  let mainBefore = '';
  const { result, repoPath } = await runScenario({
    session: SESSION,
    input: { delivery: 'merge' },
    during: async (_handle, _model, run) => {
      mainBefore = git(run.repoPath, 'rev-parse', 'main');
      writeFileSync(join(run.repoPath, 'README.md'), '# the user is editing this\n');
    },
  });
  assert.equal(result.outcome, 'failed');
  assert.equal(result.code, 'BOUNDARY_FAILED');
  assert.match(result.reason, /merge delivery is partial .*refused to touch it, main is unchanged/);
  assert.match(result.reason, /git checkout main && git merge --no-ff agent\/issue-1/);
  assert.equal(result.boundary?.status, 'partial');
  assert.equal(git(repoPath, 'rev-parse', 'main'), mainBefore, 'main untouched');
  assert.equal(readFileSync(join(repoPath, 'README.md'), 'utf8'), '# the user is editing this\n');
  assert.equal(existsSync(join(repoPath, '.git', 'MERGE_HEAD')), false);
  assert.equal(existsSync(result.worktreePath ?? '/nonexistent'), true, 'worktree kept for the delivery');
  assert.match(readFileSync(join(repoPath, '.agent', 'issues', '1.md'), 'utf8'), /state: open/);
});
