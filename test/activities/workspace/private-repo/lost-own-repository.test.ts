/**
 * A run's worktree whose private repository is gone (its sandbox state removed under the
 * live run, as a racing sweep once did) refuses every agent command, naming the cause,
 * instead of falling back to the shared view of the user's git dir (where the agent's
 * `git add` staged into the user's admin dir and its commit failed on the user's
 * read-only refs, far from the cause). The harness's own git still works there, and the
 * next prepareWorkspace of the issue makes the repository again. The marker that tells
 * the two cases apart is out of the agent's reach.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentError } from '../../../../src/contracts/errors.js';
import { localIssueSourceFactory, writeLocalIssue } from '../../../../src/activities/issues/local-issue-store.js';
import { prepareWorkspace } from '../../../../src/activities/workspace/prepare-workspace.js';
import { git } from '../../../../src/activities/workspace/git/git.js';
import { gitDirsOf } from '../../../../src/activities/workspace/git/git-state-snapshot.js';
import {
  OWN_REPOSITORY_MARKER,
  privateRepoOf,
} from '../../../../src/activities/workspace/private-repo/private-repo-layout.js';
import { sandboxCommand } from '../../../../src/activities/tools/sandbox-launch.js';
import { makeTempGitRepo } from '../../../helpers/temp-git-repo.js';
import { runInSandbox } from '../../../helpers/run-in-sandbox.js';

const prepare = (repoPath: string) =>
  prepareWorkspace(
    { issueSource: localIssueSourceFactory },
    { repoPath, issue: 4, issueSource: 'local', worktreeRoot: undefined, branchPrefix: 'agent' },
  );

test('a lost private repository stops agent commands with the cause; harness git and the next prepare recover', async () => {
  const repo = await makeTempGitRepo({});
  try {
    await writeLocalIssue(repo.dir, { number: 4, title: 'Change a file', body: 'Please.' });
    await repo.write({ '.git/info/exclude': '.agent/\n' });
    const { worktreePath: worktree } = await prepare(repo.dir);
    const own = privateRepoOf(worktree);
    assert.ok(own, 'the run has a repository of its own');
    const marker = join((await gitDirsOf(worktree)).gitDir, OWN_REPOSITORY_MARKER);
    assert.ok(existsSync(marker), 'its admin dir says so');

    // The agent cannot remove the marker: at its path the sandbox shows the private admin
    // dir, and the user's git dir is read-only to it.
    await runInSandbox(worktree, `rm -f '${marker}' && rm -rf '${own.repo.root}'`);
    assert.ok(existsSync(marker));
    assert.ok(privateRepoOf(worktree), "nor the repository's own state");

    await rm(own.repo.root, { recursive: true, force: true });
    await assert.rejects(
      sandboxCommand({ dir: worktree, command: 'git add -A', readOnly: false }),
      (err: unknown) =>
        AgentError.isInstance(err) &&
        err.code === 'WORKTREE_FAILED' &&
        err.message.includes(worktree) &&
        err.message.includes('is gone') &&
        err.where === marker,
    );
    // The harness's own git still reads the worktree (the user's view of it).
    const status = await git(worktree, ['status', '--porcelain']);
    assert.equal(status.exitCode, 0, status.stderr);

    const again = await prepare(repo.dir);
    assert.equal(again.worktreePath, worktree);
    assert.ok(privateRepoOf(worktree), 'the next prepare made the repository again');
    assert.equal((await runInSandbox(worktree, 'git status --porcelain')).exitCode, 0);
  } finally {
    await repo.cleanup();
  }
});

test('a worktree made outside a run (no marker) keeps the shared view', async () => {
  const repo = await makeTempGitRepo({});
  try {
    const worktree = `${repo.dir}-wt`;
    await repo.git('worktree', 'add', '-q', '-b', 'by-hand', worktree);
    try {
      assert.equal(privateRepoOf(worktree), undefined);
      assert.equal((await runInSandbox(worktree, 'git status --porcelain')).exitCode, 0);
    } finally {
      await rm(worktree, { recursive: true, force: true });
    }
  } finally {
    await repo.cleanup();
  }
});
