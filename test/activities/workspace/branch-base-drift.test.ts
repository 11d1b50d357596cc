/**
 * A rerun of an issue after its base moved (branch-base-drift.ts). Seen in a stranger
 * run: a run failed in the environment phase (ENVIRONMENT_FAILED), the user committed
 * the fix on main, and the rerun worked on `agent/issue-5` at the old base without the
 * fix, saying nothing. Real repositories, prepareWorkspace as the worker calls it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { execa } from 'execa';
import { join } from 'node:path';
import type { PrepareWorkspaceInput } from '../../../src/contracts/activities.js';
import { localIssueSourceFactory, writeLocalIssue } from '../../../src/activities/issues/local-issue-store.js';
import { prepareWorkspace } from '../../../src/activities/workspace/prepare-workspace.js';
import { baseDriftNote } from '../../../src/activities/workspace/branch-base-drift.js';
import { privateRepoLayout } from '../../../src/activities/workspace/private-repo/private-repo-layout.js';
import { makeTempGitRepo, type TempGitRepo } from '../../helpers/temp-git-repo.js';

const deps = { issueSource: localIssueSourceFactory };
const input = (repoPath: string): PrepareWorkspaceInput => ({
  repoPath,
  issue: 5,
  issueSource: 'local',
  worktreeRoot: '.worktrees',
  branchPrefix: 'agent',
});

/** A first run prepared the worktree (and failed before any step); then the user fixed main. */
async function failedRunThenFix(repo: TempGitRepo): Promise<{ worktreePath: string; oldBase: string; fix: string }> {
  await writeLocalIssue(repo.dir, { number: 5, title: 'T', body: 'B' });
  const first = await prepareWorkspace(deps, input(repo.dir));
  const oldBase = await repo.git('rev-parse', 'main');
  await repo.write({ 'setup.txt': 'fixed\n' });
  await repo.git('add', 'setup.txt');
  await repo.git('commit', '-qm', 'fix the setup');
  return { worktreePath: first.worktreePath, oldBase, fix: await repo.git('rev-parse', 'main') };
}

async function privateTip(worktreePath: string): Promise<string> {
  const common = privateRepoLayout(worktreePath).commonDir;
  return (await readFile(join(common, 'refs', 'heads', 'agent', 'issue-5'), 'utf8')).trim();
}

test('an untouched branch of a failed run is re-cut at the base that moved', async () => {
  const repo = await makeTempGitRepo({});
  try {
    const { worktreePath, oldBase, fix } = await failedRunThenFix(repo);
    const note = await baseDriftNote(repo.dir, 'agent', 5);
    assert.equal(
      note,
      `note: agent/issue-5 has no work of its own; it moves from ${oldBase.slice(0, 12)} to main at ${fix.slice(0, 12)}`,
    );
    const rerun = await prepareWorkspace(deps, input(repo.dir));
    assert.equal(rerun.reused, true);
    assert.equal(await repo.git('rev-parse', 'agent/issue-5'), fix);
    assert.equal(await repo.git('-C', worktreePath, 'rev-parse', 'HEAD'), fix);
    assert.equal(await readFile(join(worktreePath, 'setup.txt'), 'utf8'), 'fixed\n', 'the fix is in the worktree');
    assert.equal(await repo.git('-C', worktreePath, 'status', '--porcelain'), '');
    assert.equal(await privateTip(worktreePath), fix, "the agent's own repository starts at the new tip");
    assert.equal(await baseDriftNote(repo.dir, 'agent', 5), undefined, 'nothing to say once re-cut');
  } finally {
    await repo.cleanup();
  }
});

test('an untouched branch whose worktree is gone is re-cut before it is checked out again', async () => {
  const repo = await makeTempGitRepo({});
  try {
    const { worktreePath, fix } = await failedRunThenFix(repo);
    await rm(worktreePath, { recursive: true, force: true });
    const rerun = await prepareWorkspace(deps, input(repo.dir));
    assert.equal(await repo.git('-C', rerun.worktreePath, 'rev-parse', 'HEAD'), fix);
    assert.ok(existsSync(join(rerun.worktreePath, 'setup.txt')));
  } finally {
    await repo.cleanup();
  }
});

test('a branch with work of its own is kept, and the note says how to start fresh', async () => {
  const repo = await makeTempGitRepo({});
  try {
    const { worktreePath, oldBase, fix } = await failedRunThenFix(repo);
    await repo.write({ '.worktrees/issue-5/work.txt': 'progress\n' });
    await repo.git('-C', worktreePath, 'add', 'work.txt');
    await repo.git('-C', worktreePath, 'commit', '-qm', 'progress');
    const work = await repo.git('rev-parse', 'agent/issue-5');
    assert.equal(
      await baseDriftNote(repo.dir, 'agent', 5),
      `note: agent/issue-5 keeps its work (1 commit(s) of its own) on main at ${oldBase.slice(0, 12)}, ` +
        `not main now at ${fix.slice(0, 12)}; to start fresh: git worktree remove --force ${worktreePath} && git branch -D agent/issue-5`,
    );
    await prepareWorkspace(deps, input(repo.dir));
    assert.equal(await repo.git('rev-parse', 'agent/issue-5'), work, 'the work is kept');
  } finally {
    await repo.cleanup();
  }
});

test('uncommitted changes to tracked files count as work', async () => {
  const repo = await makeTempGitRepo({});
  try {
    const { worktreePath, oldBase } = await failedRunThenFix(repo);
    await repo.write({ '.worktrees/issue-5/README.md': 'edited\n' });
    assert.match((await baseDriftNote(repo.dir, 'agent', 5)) ?? '', /keeps its work \(uncommitted changes\)/);
    await prepareWorkspace(deps, input(repo.dir));
    assert.equal(await repo.git('-C', worktreePath, 'rev-parse', 'HEAD'), oldBase);
    assert.equal(await readFile(join(worktreePath, 'README.md'), 'utf8'), 'edited\n');
  } finally {
    await repo.cleanup();
  }
});

test("new files of a failed run count as work: the agent's commits are in its own repository until delivery", async () => {
  const repo = await makeTempGitRepo({});
  try {
    const { worktreePath, oldBase } = await failedRunThenFix(repo);
    const tipBefore = await privateTip(worktreePath);
    await repo.write({ '.worktrees/issue-5/src/new-module.js': 'module.exports = 1;\n' });
    assert.match((await baseDriftNote(repo.dir, 'agent', 5)) ?? '', /keeps its work \(uncommitted changes\)/);
    await prepareWorkspace(deps, input(repo.dir));
    assert.equal(await repo.git('-C', worktreePath, 'rev-parse', 'HEAD'), oldBase);
    assert.equal(await privateTip(worktreePath), tipBefore, "the agent's own repository is kept");
    assert.ok(existsSync(join(worktreePath, 'src/new-module.js')));
  } finally {
    await repo.cleanup();
  }
});

test("a worktree's .git naming an admin dir outside the user's worktrees is not followed by host git", async () => {
  const repo = await makeTempGitRepo({});
  const evil = await mkdtemp(join(tmpdir(), 'drift-evil-admin-'));
  try {
    const { worktreePath } = await failedRunThenFix(repo);
    // The agent's own git dir, with a filter its .gitattributes sends every file through.
    const marker = join(evil, 'filter-ran');
    await execa('git', ['init', '-q', join(evil, 'git')]);
    await execa('git', ['--git-dir', join(evil, 'git', '.git'), 'config', 'filter.evil.clean', `touch ${marker}; cat`]);
    await writeFile(join(worktreePath, '.gitattributes'), '* filter=evil\n');
    const own = ['--git-dir', join(evil, 'git', '.git'), '--work-tree', worktreePath];
    await execa('git', [...own, 'add', '-A']);
    await rm(marker, { force: true });
    await writeFile(join(worktreePath, 'README.md'), 'changed after add\n');
    await writeFile(join(worktreePath, '.git'), `gitdir: ${join(evil, 'git', '.git')}\n`);
    assert.match((await baseDriftNote(repo.dir, 'agent', 5)) ?? '', /keeps its work/);
    await prepareWorkspace(deps, input(repo.dir)).catch(() => undefined);
    assert.equal(existsSync(marker), false, "host git ran the agent's filter");
  } finally {
    await rm(evil, { recursive: true, force: true });
    await repo.cleanup();
  }
});
