/**
 * The local boundary hook on real repositories, one delivery mode at a time: what the
 * base branch, the user's checkout, the branch, the worktree and the issue look like
 * afterwards, and that a second call finds everything already done.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLocalIssueStore, localIssuePath } from '../../../src/activities/issues/local-issue-store.js';
import { checkExternalState, runLocalBoundaryHook } from '../../../src/activities/deliver/local-boundary-hook.js';
import { SQUASH_TRAILER } from '../../../src/activities/deliver/merge-into-base.js';
import { sandboxDir, writeSandboxFile } from '../../../src/activities/workspace/sandbox-state.js';
import { assertCheckoutIntact, deps, exists, localFixture } from './local-delivery-fixture.js';

const statuses = (r: { effects: readonly { name: string; status: string }[] }) =>
  r.effects.map((e) => [e.name, e.status]);

test('merge: a merge commit on main by fast-forwarding the clean checkout; issue closed outside the tree; re-run all already done', async () => {
  const { repo, input, mainBefore } = await localFixture({ delivery: 'merge' });
  try {
    const issueFileBefore = await readFile(localIssuePath(repo.dir, 5), 'utf8');
    const report = await runLocalBoundaryHook(deps, input);
    assert.equal(report.status, 'success', JSON.stringify(report, null, 2));
    assert.equal(report.delivery, 'merge');
    assert.deepEqual(statuses(report), [
      ['merge', 'done'],
      ['comment', 'done'],
      ['close-issue', 'done'],
      ['remove-worktree', 'done'],
      ['delete-branch', 'done'],
    ]);
    assert.equal(await readFile(join(repo.dir, 'hello.txt'), 'utf8'), 'hello\n', 'checkout fast-forwarded');
    assert.equal(await repo.git('log', '-1', '--format=%s'), "Merge branch 'agent/issue-5' (issue #5)");
    assert.equal(await repo.git('rev-parse', 'main^1'), mainBefore);
    assert.equal(await exists(input.worktreePath), false);
    assert.equal(await repo.git('branch', '--list', 'agent/issue-5'), '');
    await assertCheckoutIntact(repo);

    // The committed issue file is untouched; the store reads the state kept under .git.
    assert.equal(await readFile(localIssuePath(repo.dir, 5), 'utf8'), issueFileBefore);
    assert.equal(await repo.git('status', '--porcelain', '--untracked-files=all', '--', '.agent'), '');
    const issue = await checkExternalState(deps, { repoPath: repo.dir, issue: 5, issueSource: 'local' });
    assert.equal(issue.state, 'closed');
    const kept = await readFile(join(repo.dir, '.git', 'issue-agent', 'issues', '5.md'), 'utf8');
    assert.match(
      kept,
      /## Comment \(agent-issue-5:close\)\n\nClosed by run `agent-issue-5` \(branch `agent\/issue-5`\)\. Merged into `main`\./,
    );
    assert.match(kept, /- passed `tests-pass`: `npm test` passed/);

    const again = await runLocalBoundaryHook(deps, input);
    assert.equal(again.status, 'success');
    assert.deepEqual(
      again.effects.map((e) => e.status),
      ['already-done', 'already-done', 'already-done', 'already-done', 'already-done'],
    );
  } finally {
    await repo.cleanup();
  }
});

test('squash: one commit on main with the trailer, branch deleted; a re-run recognises the squash', async () => {
  const { repo, input, mainBefore } = await localFixture({ delivery: 'squash' });
  try {
    const branchHead = await repo.git('rev-parse', 'agent/issue-5');
    const report = await runLocalBoundaryHook(deps, input);
    assert.equal(report.status, 'success', JSON.stringify(report, null, 2));
    assert.equal(report.effects[0]?.name, 'squash');
    assert.equal(
      await repo.git('rev-list', '--parents', '-n1', 'main'),
      `${await repo.git('rev-parse', 'main')} ${mainBefore}`,
    );
    assert.match(await repo.git('log', '-1', '--format=%B', 'main'), new RegExp(`${SQUASH_TRAILER}: ${branchHead}`));
    assert.equal(await readFile(join(repo.dir, 'hello.txt'), 'utf8'), 'hello\n');
    assert.equal(await repo.git('branch', '--list', 'agent/issue-5'), '');
    await assertCheckoutIntact(repo);
    const again = await runLocalBoundaryHook(deps, input);
    assert.equal(again.status, 'success');
    assert.equal(again.effects[0]?.status, 'already-done');
    assert.equal(await repo.git('rev-list', '--count', `${mainBefore}..main`), '1', 'squashed once');
  } finally {
    await repo.cleanup();
  }
});

test('branch: main untouched, branch kept with how to merge it, worktree removed, issue closed', async () => {
  const { repo, input, mainBefore } = await localFixture({ delivery: 'branch' });
  try {
    // The agent's private HOME and repository (what its commands could write) go with the worktree.
    await writeSandboxFile(input.worktreePath, 'planted', 'left by the agent\n');
    const sandbox = sandboxDir(input.worktreePath);
    assert.equal(await exists(sandbox), true);
    const report = await runLocalBoundaryHook(deps, input);
    assert.equal(await exists(sandbox), false, 'the sandbox state of the removed worktree is gone');
    assert.equal(report.status, 'success', JSON.stringify(report, null, 2));
    assert.deepEqual(statuses(report), [
      ['keep-branch', 'done'],
      ['comment', 'done'],
      ['close-issue', 'done'],
      ['remove-worktree', 'done'],
    ]);
    assert.equal(report.mergeCommand, 'git merge agent/issue-5');
    assert.match(report.effects[0]?.detail ?? '', /main is unchanged; to merge it, .* git merge agent\/issue-5/);
    assert.equal(await repo.git('rev-parse', 'main'), mainBefore);
    assert.notEqual(await repo.git('branch', '--list', 'agent/issue-5'), '');
    assert.equal(await exists(join(repo.dir, 'hello.txt')), false);
    await assertCheckoutIntact(repo);
    assert.equal((await createLocalIssueStore(repo.dir).read(5)).state, 'closed');
    // The printed command works, and the next delivery sees the branch merged.
    await repo.git('merge', '-q', '--no-edit', 'agent/issue-5');
    const again = await runLocalBoundaryHook(deps, input);
    assert.equal(again.status, 'success');
    assert.equal(again.effects[0]?.status, 'already-done');
  } finally {
    await repo.cleanup();
  }
});

test('merge with main checked out and dirty: refused with how to merge, nothing changed; after a commit the re-run delivers', async () => {
  const { repo, input, mainBefore } = await localFixture({ delivery: 'merge' });
  try {
    await repo.write({ 'README.md': '# edited by the user\n' });
    const report = await runLocalBoundaryHook(deps, input);
    assert.equal(report.status, 'partial');
    assert.equal(report.effects[0]?.status, 'skipped');
    assert.match(report.effects[0]?.detail ?? '', /uncommitted change.*refused to touch it, main is unchanged/);
    assert.match(
      report.pending[0] ?? '',
      /commit or stash your changes, then in .*: git checkout main && git merge --no-ff agent\/issue-5/,
    );
    assert.equal(await repo.git('rev-parse', 'main'), mainBefore);
    assert.equal(await readFile(join(repo.dir, 'README.md'), 'utf8'), '# edited by the user\n');
    assert.equal(await repo.git('status', '--porcelain', '--untracked-files=no'), 'M README.md');
    assert.equal(await exists(join(repo.dir, '.git', 'MERGE_HEAD')), false);
    assert.equal(await exists(input.worktreePath), true, 'worktree kept');
    assert.equal((await createLocalIssueStore(repo.dir).read(5)).state, 'open');

    await repo.git('commit', '-qam', 'user edit');
    assert.equal((await runLocalBoundaryHook(deps, input)).status, 'success');
    await assertCheckoutIntact(repo);
    assert.equal(await readFile(join(repo.dir, 'hello.txt'), 'utf8'), 'hello\n');
  } finally {
    await repo.cleanup();
  }
});

test('merge with the checkout on another branch: main moves by an atomic ref update, the checkout is untouched', async () => {
  const { repo, input, mainBefore } = await localFixture({ delivery: 'merge' });
  try {
    await repo.git('checkout', '-qb', 'feature/mine');
    await repo.write({ 'notes.txt': 'work in progress\n' });
    const report = await runLocalBoundaryHook(deps, input);
    assert.equal(report.status, 'success', JSON.stringify(report, null, 2));
    assert.equal(await repo.git('rev-parse', 'main^1'), mainBefore);
    assert.equal(await repo.git('rev-parse', 'HEAD'), mainBefore, 'the checkout stays where it was');
    assert.equal(await repo.git('branch', '--show-current'), 'feature/mine');
    assert.equal(await exists(join(repo.dir, 'hello.txt')), false);
    assert.equal(await readFile(join(repo.dir, 'notes.txt'), 'utf8'), 'work in progress\n');
  } finally {
    await repo.cleanup();
  }
});

test('a conflict fails the merge: main, the checkout and the worktree are untouched', async () => {
  const { repo, input, mainBefore } = await localFixture({ delivery: 'merge' });
  try {
    await repo.write({ '.worktrees/issue-5/README.md': '# from the branch\n' });
    await repo.git('-C', input.worktreePath, 'commit', '-qam', 'branch readme');
    await repo.write({ 'README.md': '# from main\n' });
    await repo.git('commit', '-qam', 'main readme');
    const mainNow = await repo.git('rev-parse', 'main');
    assert.notEqual(mainNow, mainBefore);
    const report = await runLocalBoundaryHook(deps, input);
    assert.equal(report.status, 'failed');
    assert.match(report.effects[0]?.detail ?? '', /conflict in README\.md; main is unchanged/);
    assert.equal(await repo.git('rev-parse', 'main'), mainNow);
    await assertCheckoutIntact(repo);
    assert.equal(await exists(input.worktreePath), true);
  } finally {
    await repo.cleanup();
  }
});

test('uncommitted work in the worktree fails every mode before anything moves', async () => {
  for (const delivery of ['branch', 'merge', 'squash'] as const) {
    const { repo, input, mainBefore } = await localFixture({ delivery });
    try {
      await repo.write({ '.worktrees/issue-5/extra.txt': 'not committed\n' });
      const report = await runLocalBoundaryHook(deps, input);
      assert.equal(report.status, 'failed', delivery);
      assert.match(report.pending[0] ?? '', /commit or discard the changes/);
      assert.equal(await repo.git('rev-parse', 'main'), mainBefore);
      assert.equal((await createLocalIssueStore(repo.dir).read(5)).state, 'open');
    } finally {
      await repo.cleanup();
    }
  }
});

test('an untracked (excluded) issue file is updated in place; main stays clean', async () => {
  const { repo, input } = await localFixture({ delivery: 'merge', trackedIssue: false });
  try {
    assert.equal((await runLocalBoundaryHook(deps, input)).status, 'success');
    assert.match(await readFile(localIssuePath(repo.dir, 5), 'utf8'), /state: closed/);
    assert.equal(await exists(join(repo.dir, '.git', 'issue-agent', 'issues', '5.md')), false);
    await assertCheckoutIntact(repo);
    assert.equal(await repo.git('status', '--porcelain'), '');
  } finally {
    await repo.cleanup();
  }
});

test('label-and-close relabels the committed issue outside the tree and closes it; a re-run finds the labels set', async () => {
  const { repo, input } = await localFixture();
  try {
    const store = createLocalIssueStore(repo.dir);
    await store.relabel(5, { add: ['agent', 'in-progress'] });
    assert.equal(await repo.git('status', '--porcelain'), '', 'relabelling leaves the checkout clean');
    const labelled = {
      ...input,
      closureAction: 'label-and-close' as const,
      labels: { add: ['done'], remove: ['in-progress', 'never-there'] },
    };
    const report = await runLocalBoundaryHook(deps, labelled);
    assert.equal(report.status, 'success', JSON.stringify(report, null, 2));
    assert.deepEqual(statuses(report), [
      ['merge', 'done'],
      ['comment', 'done'],
      ['label', 'done'],
      ['close-issue', 'done'],
      ['remove-worktree', 'done'],
      ['delete-branch', 'done'],
    ]);
    assert.match(report.effects[2]?.detail ?? '', /added done; removed in-progress/);
    const issue = await store.read(5);
    assert.deepEqual(issue.labels, ['agent', 'done']);
    assert.equal(issue.state, 'closed');
    const again = await runLocalBoundaryHook(deps, labelled);
    assert.equal(again.effects[2]?.status, 'already-done');
  } finally {
    await repo.cleanup();
  }
});

test('label-only relabels the issue and must not close it', async () => {
  const { repo, input } = await localFixture();
  try {
    const report = await runLocalBoundaryHook(deps, {
      ...input,
      closureAction: 'label-only',
      labels: { add: ['needs-review'], remove: [] },
    });
    assert.equal(report.status, 'success', JSON.stringify(report, null, 2));
    assert.deepEqual(statuses(report).slice(1, 4), [
      ['comment', 'done'],
      ['label', 'done'],
      ['close-issue', 'skipped'],
    ]);
    const issue = await createLocalIssueStore(repo.dir).read(5);
    assert.equal(issue.state, 'open');
    assert.deepEqual(issue.labels, ['needs-review']);
    // The comment must not claim a close that did not happen.
    const text = await readFile(join(repo.dir, '.git', 'issue-agent', 'issues', '5.md'), 'utf8');
    assert.match(text, /Completed by run `agent-issue-5`/);
    assert.doesNotMatch(text, /Closed by run/);
  } finally {
    await repo.cleanup();
  }
});

test('two deliveries in a row on the same repository: the first never leaves main dirty for the second', async () => {
  const first = await localFixture({ delivery: 'merge' });
  try {
    assert.equal((await runLocalBoundaryHook(deps, first.input)).status, 'success');
    const { writeLocalIssue } = await import('../../../src/activities/issues/local-issue-store.js');
    const { prepareWorkspace } = await import('../../../src/activities/workspace/prepare-workspace.js');
    await writeLocalIssue(first.repo.dir, { number: 6, title: 'Bye', body: 'add bye.txt' });
    await first.repo.git('add', '-A');
    await first.repo.git('commit', '-qm', 'add issue 6');
    const ws = await prepareWorkspace(deps, {
      repoPath: first.repo.dir,
      issue: 6,
      issueSource: 'local',
      worktreeRoot: '.worktrees',
      branchPrefix: 'agent',
    });
    await first.repo.write({ '.worktrees/issue-6/bye.txt': 'bye\n' });
    await first.repo.git('-C', ws.worktreePath, 'add', 'bye.txt');
    await first.repo.git('-C', ws.worktreePath, 'commit', '-qm', 'add bye');
    const second = await runLocalBoundaryHook(deps, {
      ...first.input,
      workflowId: 'agent-issue-6',
      issue: 6,
      worktreePath: ws.worktreePath,
      branch: ws.branch,
    });
    assert.equal(second.status, 'success', JSON.stringify(second, null, 2));
    assert.equal(await readFile(join(first.repo.dir, 'bye.txt'), 'utf8'), 'bye\n');
    await assertCheckoutIntact(first.repo);
  } finally {
    await first.repo.cleanup();
  }
});

test('the dispatcher: local issues default to branch delivery; pr with local issues is refused', async () => {
  const { repo, input, mainBefore } = await localFixture();
  try {
    const { runBoundaryHook, boundaryDepsFromEnv } =
      await import('../../../src/activities/deliver/run-boundary-hook.js');
    const { delivery: _chosen, ...unchosen } = input;
    await assert.rejects(runBoundaryHook(boundaryDepsFromEnv({}), { ...input, delivery: 'pr' }), /--deliver pr/);
    const report = await runBoundaryHook(boundaryDepsFromEnv({}), unchosen);
    assert.equal(report.status, 'success');
    assert.equal(report.delivery, 'branch');
    assert.equal(await repo.git('rev-parse', 'main'), mainBefore, 'the default never changes the base branch');
  } finally {
    await repo.cleanup();
  }
});
