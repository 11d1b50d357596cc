/**
 * The default worktrees in the worker's state dir: a run begun under the old default
 * (`<git-dir>/agent/worktrees/issue-<n>`) resumes there; a worktree whose repository is
 * gone is swept at the next run start, and one of a live repository never is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeLocalIssue } from '../../../src/activities/issues/local-issue-store.js';
import { prepareWorkspace } from '../../../src/activities/workspace/prepare-workspace.js';
import { sweepDeadWorktrees } from '../../../src/activities/workspace/state-worktrees.js';
import { worktreesStateRoot } from '../../../src/activities/workspace/worktree-layout.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';
import { workspaceDeps, workspaceInput } from './workspace-fixture.js';

const defaultInput = (repoPath: string, issue: number) => ({
  ...workspaceInput(repoPath, issue),
  worktreeRoot: undefined,
});

test('a live worktree at the old default under the git dir is resumed there, not made again', async () => {
  const repo = await makeTempGitRepo({});
  const stateDir = await realpath(await mkdtemp(join(tmpdir(), 'state-')));
  try {
    await writeLocalIssue(repo.dir, { number: 3, title: 'T', body: 'B' });
    const legacy = join(await realpath(repo.dir), '.git', 'agent', 'worktrees', 'issue-3');
    await repo.git('worktree', 'add', '-b', 'agent/issue-3', legacy, 'main');
    const out = await prepareWorkspace({ ...workspaceDeps, stateDir }, defaultInput(repo.dir, 3));
    assert.equal(out.worktreePath, legacy);
    assert.equal(out.reused, true);
    assert.equal(existsSync(worktreesStateRoot(stateDir)), false, 'no second worktree made');
  } finally {
    await repo.cleanup();
    await rm(stateDir, { recursive: true, force: true });
  }
});

test("a worktree whose repository is gone is swept; a live repository's is kept", async () => {
  const gone = await makeTempGitRepo({});
  const kept = await makeTempGitRepo({});
  const stateDir = await realpath(await mkdtemp(join(tmpdir(), 'state-')));
  try {
    const deps = { ...workspaceDeps, stateDir };
    await writeLocalIssue(gone.dir, { number: 1, title: 'T', body: 'B' });
    await writeLocalIssue(kept.dir, { number: 1, title: 'T', body: 'B' });
    const dead = await prepareWorkspace(deps, defaultInput(gone.dir, 1));
    const live = await prepareWorkspace(deps, defaultInput(kept.dir, 1));
    assert.notEqual(dead.worktreePath, live.worktreePath, 'one root per repository');
    assert.deepEqual(await sweepDeadWorktrees(stateDir), [], 'nothing dead yet');

    await gone.cleanup();
    assert.deepEqual(await sweepDeadWorktrees(stateDir), [dead.worktreePath]);
    assert.equal(existsSync(join(dead.worktreePath, '..')), false, 'its empty repository root goes too');
    assert.equal(existsSync(live.worktreePath), true);
    assert.equal((await prepareWorkspace(deps, defaultInput(kept.dir, 1))).reused, true);
  } finally {
    await gone.cleanup();
    await kept.cleanup();
    await rm(stateDir, { recursive: true, force: true });
  }
});

test('the same issue of a repository made afresh at the same path gets a fresh worktree, not the dead one', async () => {
  const repo = await makeTempGitRepo({});
  const stateDir = await realpath(await mkdtemp(join(tmpdir(), 'state-')));
  try {
    const deps = { ...workspaceDeps, stateDir };
    await writeLocalIssue(repo.dir, { number: 2, title: 'T', body: 'B' });
    const first = await prepareWorkspace(deps, defaultInput(repo.dir, 2));
    await writeFile(join(first.worktreePath, 'left-over.txt'), 'x\n');
    // The user deletes the clone and clones again at the same path (here: a new repository).
    await rm(join(repo.dir, '.git'), { recursive: true, force: true });
    await repo.git('init', '-q', '-b', 'main');
    await repo.git('add', '-A');
    await repo.git('commit', '-q', '-m', 'again');
    const second = await prepareWorkspace(deps, defaultInput(repo.dir, 2));
    assert.equal(second.worktreePath, first.worktreePath);
    assert.equal(second.reused, false);
    assert.equal(existsSync(join(second.worktreePath, 'left-over.txt')), false);
  } finally {
    await repo.cleanup();
    await rm(stateDir, { recursive: true, force: true });
  }
});
