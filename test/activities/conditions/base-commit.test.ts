/**
 * The worktree's state from one `git status --porcelain=v2 --branch`, and the base commit
 * found with it, on real repositories: HEAD, branch and tracked changes as the three git
 * calls it replaces reported them.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import {
  baseCommit,
  baseCommitsOf,
  worktreeAtCommit,
  worktreeState,
  worktreeStateAndBase,
} from '../../../src/activities/conditions/base-commit.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';

test('a clean checkout: HEAD, branch, clean; untracked files do not count', async () => {
  const repo = await makeTempGitRepo({ files: { 'a.txt': 'a\n' } });
  try {
    const head = await repo.git('rev-parse', 'HEAD');
    await repo.write({ 'new.txt': 'untracked\n' });
    assert.deepEqual(await worktreeState(repo.dir), { head, branch: 'main', clean: true });
    assert.equal(await worktreeAtCommit(repo.dir, head), true);
  } finally {
    await repo.cleanup();
  }
});

test('a changed tracked file, a new commit, a detached HEAD', async () => {
  const repo = await makeTempGitRepo({ files: { 'a.txt': 'a\n' } });
  try {
    const base = await repo.git('rev-parse', 'HEAD');
    await repo.write({ 'a.txt': 'changed\n' });
    assert.equal((await worktreeState(repo.dir)).clean, false);
    assert.equal(await worktreeAtCommit(repo.dir, base), false);
    await repo.git('commit', '-qam', 'work');
    const state = await worktreeState(repo.dir);
    assert.equal(state.clean, true);
    assert.notEqual(state.head, base);
    assert.equal(await worktreeAtCommit(repo.dir, base, state), false);
    await repo.git('checkout', '-q', '--detach', base);
    assert.deepEqual(await worktreeState(repo.dir), { head: base, branch: undefined, clean: true });
  } finally {
    await repo.cleanup();
  }
});

test('the recorded base of the branch, through the state’s branch name', async () => {
  const repo = await makeTempGitRepo({ files: { 'a.txt': 'a\n' } });
  try {
    const base = await repo.git('rev-parse', 'HEAD');
    await repo.git('checkout', '-q', '-b', 'agent/issue-7');
    await repo.git('config', 'branch.agent/issue-7.agentBase', 'main');
    await repo.write({ 'a.txt': 'work\n' });
    await repo.git('commit', '-qam', 'work');
    const state = await worktreeState(repo.dir);
    assert.equal(state.branch, 'agent/issue-7');
    assert.equal(await baseCommit(repo.dir, undefined, state), base);
    assert.equal(await baseCommit(repo.dir), base);
  } finally {
    await repo.cleanup();
  }
});

test('a repository with no commit yet: no HEAD, not at any commit', async () => {
  const repo = await makeTempGitRepo();
  try {
    await repo.git('checkout', '-q', '--orphan', 'fresh');
    await repo.git('rm', '-rq', '--cached', '.').catch(() => undefined);
    const state = await worktreeState(repo.dir);
    assert.equal(state.head, undefined);
    assert.equal(state.branch, 'fresh');
  } finally {
    await repo.cleanup();
  }
});

test('an explicit base: the merge-base with HEAD, else its own commit; nothing recorded or resolvable is undefined', async () => {
  const repo = await makeTempGitRepo({ files: { 'a.txt': 'a\n' } });
  try {
    const fork = await repo.git('rev-parse', 'HEAD');
    await repo.git('checkout', '-q', '-b', 'side');
    await repo.write({ 'b.txt': 'side\n' });
    await repo.git('add', '-A');
    await repo.git('commit', '-qm', 'side');
    await repo.git('checkout', '-q', '-b', 'agent/issue-8', 'main');
    await repo.write({ 'a.txt': 'work\n' });
    await repo.git('commit', '-qam', 'work');
    // main is an ancestor: its own commit; side forked at main's commit: the fork point.
    assert.equal(await baseCommit(repo.dir, 'main'), fork);
    assert.equal(await baseCommit(repo.dir, 'side'), fork);
    assert.equal(await baseCommit(repo.dir, 'no-such-branch'), undefined);
    assert.equal(await baseCommit(repo.dir, ''), undefined);
    // No agentBase recorded for this branch; a detached state names no branch.
    assert.equal(await baseCommit(repo.dir), undefined);
    assert.equal(await baseCommit(repo.dir, undefined, { head: fork, branch: undefined, clean: true }), undefined);
  } finally {
    await repo.cleanup();
  }
});

test('a base that is shell text stays an argument: nothing runs', async () => {
  const repo = await makeTempGitRepo({ files: { 'a.txt': 'a\n' } });
  try {
    const marker = `${repo.dir}/ran`;
    assert.equal(await baseCommit(repo.dir, `main"; touch ${marker}; echo "`), undefined);
    await repo.git('config', 'branch.main.agentBase', `$(touch ${marker})`);
    assert.equal(await baseCommit(repo.dir), undefined);
    assert.equal(existsSync(marker), false);
  } finally {
    await repo.cleanup();
  }
});

test("a closure's bases are found once each: the recorded one and each explicit ref apart", async () => {
  const repo = await makeTempGitRepo({ files: { 'a.txt': 'a\n' } });
  try {
    const first = await repo.git('rev-parse', 'HEAD');
    await repo.write({ 'a.txt': 'second\n' });
    await repo.git('commit', '-qam', 'second');
    const second = await repo.git('rev-parse', 'HEAD');
    await repo.git('checkout', '-q', '-b', 'agent/issue-8');
    await repo.git('config', 'branch.agent/issue-8.agentBase', first);
    const bases = baseCommitsOf(repo.dir);
    assert.equal(await bases(), first);
    assert.equal(await bases(second), second, 'an explicit ref is its own question');
    // The recorded base moves: the closure's answer stays the one its validators share.
    await repo.git('config', 'branch.agent/issue-8.agentBase', second);
    assert.equal(await bases(), first, 'asked again: the first answer, no second git call');
    assert.equal(await baseCommitsOf(repo.dir)(), second, 'the next closure asks git again');
    assert.equal(await bases(''), undefined, 'an empty explicit base is none');
  } finally {
    await repo.cleanup();
  }
});

test('state and recorded base in one call: the same answers as worktreeState and baseCommit apart', async () => {
  const repo = await makeTempGitRepo({ files: { 'a.txt': 'a\n' } });
  try {
    const base = await repo.git('rev-parse', 'HEAD');
    // No recorded base: the state, no base.
    assert.deepEqual(await worktreeStateAndBase(repo.dir), { state: await worktreeState(repo.dir), base: undefined });
    await repo.git('checkout', '-q', '-b', 'agent/issue-8');
    await repo.git('config', 'branch.agent/issue-8.agentBase', 'main');
    await repo.write({ 'a.txt': 'work\n' });
    await repo.git('commit', '-qam', 'work');
    await repo.write({ 'a.txt': 'uncommitted\n' });
    const both = await worktreeStateAndBase(repo.dir);
    assert.deepEqual(both.state, await worktreeState(repo.dir));
    assert.equal(both.state.clean, false);
    assert.equal(both.state.branch, 'agent/issue-8');
    assert.equal(both.base, base);
    assert.equal(both.base, await baseCommit(repo.dir));
    // A detached HEAD names no branch, so no recorded base.
    await repo.git('checkout', '-q', '-f', '--detach', base);
    assert.deepEqual(await worktreeStateAndBase(repo.dir), {
      state: { head: base, branch: undefined, clean: true },
      base: undefined,
    });
  } finally {
    await repo.cleanup();
  }
});

test('outside a repository: nothing is known', async () => {
  assert.deepEqual(await worktreeStateAndBase('/'), {
    state: { head: undefined, branch: undefined, clean: false },
    base: undefined,
  });
});
