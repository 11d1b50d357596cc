/**
 * A rerun of an issue after its base moved (branch-base-drift.ts). Seen in a stranger
 * run: a run failed in the environment phase (ENVIRONMENT_FAILED), the user committed
 * the fix on main, and the rerun worked on `agent/issue-5` at the old base without the
 * fix, saying nothing. Real repositories, prepareWorkspace as the worker calls it
 * (the repository each test starts from: withDriftedRepo, workspace-fixture.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { execa } from 'execa';
import { join } from 'node:path';
import { withDriftedRepo, workspaceDeps, workspaceInput } from './workspace-fixture.js';
import { baseDriftNote } from '../../../src/activities/workspace/branch-base-drift.js';
import { prepareWorkspace } from '../../../src/activities/workspace/prepare-workspace.js';
import { writeLocalIssue } from '../../../src/activities/issues/local-issue-store.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';

test('an untouched branch of a failed run is re-cut at the base that moved', async () => {
  await withDriftedRepo(async ({ repo, worktreePath, oldBase, fix, note, rerun, privateTip }) => {
    assert.equal(
      await note(),
      `note: agent/issue-5 has no work of its own; it moves from ${oldBase.slice(0, 12)} to main at ${fix.slice(0, 12)}`,
    );
    const again = await rerun();
    assert.equal(again.reused, true);
    assert.equal(await repo.git('rev-parse', 'agent/issue-5'), fix);
    assert.equal(await repo.git('-C', worktreePath, 'rev-parse', 'HEAD'), fix);
    assert.equal(await readFile(join(worktreePath, 'setup.txt'), 'utf8'), 'fixed\n', 'the fix is in the worktree');
    assert.equal(await repo.git('-C', worktreePath, 'status', '--porcelain'), '');
    assert.equal(await privateTip(), fix, "the agent's own repository starts at the new tip");
    assert.equal(await note(), undefined, 'nothing to say once re-cut');
  });
});

test('an untouched branch whose worktree is gone is re-cut before it is checked out again', async () => {
  await withDriftedRepo(async ({ repo, worktreePath, fix, rerun }) => {
    await rm(worktreePath, { recursive: true, force: true });
    const again = await rerun();
    assert.equal(await repo.git('-C', again.worktreePath, 'rev-parse', 'HEAD'), fix);
    assert.ok(existsSync(join(again.worktreePath, 'setup.txt')));
  });
});

test('a branch with work of its own is kept, and the note says how to start fresh', async () => {
  await withDriftedRepo(async ({ repo, worktreePath, oldBase, fix, note, rerun }) => {
    await repo.write({ '.worktrees/issue-5/work.txt': 'progress\n' });
    await repo.git('-C', worktreePath, 'add', 'work.txt');
    await repo.git('-C', worktreePath, 'commit', '-qm', 'progress');
    const work = await repo.git('rev-parse', 'agent/issue-5');
    assert.equal(
      await note(),
      `note: agent/issue-5 keeps its work (1 commit(s) of its own) on main at ${oldBase.slice(0, 12)}, ` +
        `not main now at ${fix.slice(0, 12)}; to start fresh: git worktree remove --force ${worktreePath} && git branch -D agent/issue-5`,
    );
    await rerun();
    assert.equal(await repo.git('rev-parse', 'agent/issue-5'), work, 'the work is kept');
  });
});

test('uncommitted changes to tracked files count as work', async () => {
  await withDriftedRepo(async ({ repo, worktreePath, oldBase, note, rerun }) => {
    await repo.write({ '.worktrees/issue-5/README.md': 'edited\n' });
    assert.match((await note()) ?? '', /keeps its work \(uncommitted changes\)/);
    await rerun();
    assert.equal(await repo.git('-C', worktreePath, 'rev-parse', 'HEAD'), oldBase);
    assert.equal(await readFile(join(worktreePath, 'README.md'), 'utf8'), 'edited\n');
  });
});

test("new files of a failed run count as work: the agent's commits are in its own repository until delivery", async () => {
  await withDriftedRepo(async ({ repo, worktreePath, oldBase, note, rerun, privateTip }) => {
    const tipBefore = await privateTip();
    await repo.write({ '.worktrees/issue-5/src/new-module.js': 'module.exports = 1;\n' });
    assert.match((await note()) ?? '', /keeps its work \(uncommitted changes\)/);
    await rerun();
    assert.equal(await repo.git('-C', worktreePath, 'rev-parse', 'HEAD'), oldBase);
    assert.equal(await privateTip(), tipBefore, "the agent's own repository is kept");
    assert.ok(existsSync(join(worktreePath, 'src/new-module.js')));
  });
});

test("a worktree's .git naming an admin dir outside the user's worktrees is not followed by host git", async () => {
  await withDriftedRepo(async ({ worktreePath, note, rerun }) => {
    const evil = await mkdtemp(join(tmpdir(), 'drift-evil-admin-'));
    try {
      // The agent's own git dir, with a filter its .gitattributes sends every file through.
      const marker = join(evil, 'filter-ran');
      await execa('git', ['init', '-q', join(evil, 'git')]);
      await execa('git', [
        '--git-dir',
        join(evil, 'git', '.git'),
        'config',
        'filter.evil.clean',
        `touch ${marker}; cat`,
      ]);
      await writeFile(join(worktreePath, '.gitattributes'), '* filter=evil\n');
      const own = ['--git-dir', join(evil, 'git', '.git'), '--work-tree', worktreePath];
      await execa('git', [...own, 'add', '-A']);
      await rm(marker, { force: true });
      await writeFile(join(worktreePath, 'README.md'), 'changed after add\n');
      await writeFile(join(worktreePath, '.git'), `gitdir: ${join(evil, 'git', '.git')}\n`);
      assert.match((await note()) ?? '', /keeps its work/);
      await rerun().catch(() => undefined);
      assert.equal(existsSync(marker), false, "host git ran the agent's filter");
    } finally {
      await rm(evil, { recursive: true, force: true });
    }
  });
});

test("a branch with an earlier run's work whose base did not move: the note says a new run continues on it", async () => {
  const repo = await makeTempGitRepo({});
  try {
    await writeLocalIssue(repo.dir, { number: 5, title: 'T', body: 'B' });
    const { worktreePath } = await prepareWorkspace(workspaceDeps, workspaceInput(repo.dir));
    assert.equal(await baseDriftNote(repo.dir, 'agent', 5), undefined, 'a fresh branch: nothing to say');
    await repo.write({ '.worktrees/issue-5/src/skip.js': 'it.skip\n' });
    assert.equal(
      await baseDriftNote(repo.dir, 'agent', 5),
      `note: agent/issue-5 holds the work of an earlier run (uncommitted changes); this run continues on it; to start fresh: git worktree remove --force ${worktreePath} && git branch -D agent/issue-5`,
    );
  } finally {
    await repo.cleanup();
  }
});
