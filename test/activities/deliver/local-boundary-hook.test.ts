import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BoundaryHookInput, ConditionResult } from '../../../src/contracts/activities.js';
import {
  createLocalIssueStore,
  localIssueSourceFactory,
  localIssuePath,
  writeLocalIssue,
} from '../../../src/activities/issues/local-issue-store.js';
import { prepareWorkspace } from '../../../src/activities/workspace/prepare-workspace.js';
import { checkExternalState, runLocalBoundaryHook } from '../../../src/activities/deliver/local-boundary-hook.js';
import { makeTempGitRepo, type TempGitRepo } from '../../helpers/temp-git-repo.js';

const deps = { issueSource: localIssueSourceFactory };
const evidence: ConditionResult[] = [
  {
    validator: 'git-clean',
    passed: true,
    summary: '`git status --porcelain` passed (no output)',
    params: {},
    unrecoverable: false,
  },
  {
    validator: 'tests-pass',
    passed: true,
    summary: '`npm test` passed (exit code 0)',
    params: {},
    unrecoverable: false,
  },
];

/** A repo with issue #5 (committed, so the store is part of the repo) and a worktree with one commit. */
async function setup(): Promise<{ repo: TempGitRepo; input: BoundaryHookInput }> {
  const repo = await makeTempGitRepo({});
  await writeLocalIssue(repo.dir, { number: 5, title: 'Add greeting', body: 'Please add hello.txt' });
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'add issue 5');
  const ws = await prepareWorkspace(deps, {
    repoPath: repo.dir,
    issue: 5,
    issueSource: 'local',
    worktreeRoot: '.worktrees',
    branchPrefix: 'agent',
  });
  await repo.write({ '.worktrees/issue-5/hello.txt': 'hello\n' });
  await repo.git('-C', ws.worktreePath, 'add', 'hello.txt');
  await repo.git('-C', ws.worktreePath, 'commit', '-qm', 'add hello');
  return {
    repo,
    input: {
      workflowId: 'agent-issue-5',
      mode: 'local',
      repoPath: repo.dir,
      worktreePath: ws.worktreePath,
      branch: ws.branch,
      baseBranch: ws.baseBranch,
      issue: 5,
      closureAction: 'close',
      labels: { add: [], remove: [] },
      summary: 'Added hello.txt.',
      evidence,
    },
  };
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

test('success: merge, comment, close, remove worktree, delete branch; a second call finds all already done', async () => {
  const { repo, input } = await setup();
  try {
    const report = await runLocalBoundaryHook(deps, input);
    assert.equal(report.status, 'success', JSON.stringify(report, null, 2));
    assert.deepEqual(report.pending, []);
    assert.deepEqual(
      report.effects.map((e) => [e.name, e.status]),
      [
        ['merge', 'done'],
        ['comment', 'done'],
        ['close-issue', 'done'],
        ['remove-worktree', 'done'],
        ['delete-branch', 'done'],
      ],
    );
    assert.equal(await readFile(join(repo.dir, 'hello.txt'), 'utf8'), 'hello\n');
    assert.equal(await repo.git('log', '-1', '--format=%s'), "Merge branch 'agent/issue-5' (issue #5)");
    assert.equal(await exists(input.worktreePath), false);
    assert.equal(await repo.git('branch', '--list', 'agent/issue-5'), '');
    const issue = await checkExternalState(deps, { repoPath: repo.dir, issue: 5, issueSource: 'local' });
    assert.equal(issue.state, 'closed');
    const text = await readFile(localIssuePath(repo.dir, 5), 'utf8');
    assert.match(text, /## Comment \(agent-issue-5:close\)\n\nClosed by run `agent-issue-5`/);
    assert.match(text, /Added hello\.txt\./);
    assert.match(text, /- passed `tests-pass`: `npm test` passed/);

    const again = await runLocalBoundaryHook(deps, input);
    assert.equal(again.status, 'success');
    assert.deepEqual(
      again.effects.map((e) => e.status),
      ['already-done', 'already-done', 'already-done', 'already-done', 'already-done'],
    );
    assert.equal((await readFile(localIssuePath(repo.dir, 5), 'utf8')).match(/## Comment/g)?.length, 1);
  } finally {
    await repo.cleanup();
  }
});

test('main checkout on another branch → partial, user tree untouched, worktree and issue kept', async () => {
  const { repo, input } = await setup();
  try {
    await repo.git('checkout', '-qb', 'feature/mine');
    const headBefore = await repo.git('rev-parse', 'HEAD');
    const report = await runLocalBoundaryHook(deps, input);
    assert.equal(report.status, 'partial');
    assert.equal(report.effects[0]?.name, 'merge');
    assert.equal(report.effects[0]?.status, 'skipped');
    assert.match(report.effects[0]?.detail ?? '', /on feature\/mine, not main/);
    assert.equal(report.pending.length, 1);
    assert.match(report.pending[0] ?? '', /git checkout main && git merge --no-ff agent\/issue-5/);
    assert.equal(await repo.git('rev-parse', 'HEAD'), headBefore);
    assert.equal(await repo.git('branch', '--show-current'), 'feature/mine');
    assert.equal(await exists(input.worktreePath), true);
    assert.equal((await createLocalIssueStore(repo.dir).read(5)).state, 'open');

    // Once the user is back on main, a re-run completes the delivery.
    await repo.git('checkout', '-q', 'main');
    assert.equal((await runLocalBoundaryHook(deps, input)).status, 'success');
  } finally {
    await repo.cleanup();
  }
});

test('main checkout with uncommitted changes to tracked files → partial, nothing touched', async () => {
  const { repo, input } = await setup();
  try {
    await repo.write({ 'README.md': '# edited by the user\n' });
    const report = await runLocalBoundaryHook(deps, input);
    assert.equal(report.status, 'partial');
    assert.match(report.effects[0]?.detail ?? '', /uncommitted change/);
    assert.equal(await readFile(join(repo.dir, 'README.md'), 'utf8'), '# edited by the user\n');
    assert.equal(await exists(input.worktreePath), true);
  } finally {
    await repo.cleanup();
  }
});

test('uncommitted work in the worktree or a merge conflict → failed, worktree kept', async () => {
  const { repo, input } = await setup();
  try {
    await repo.write({ '.worktrees/issue-5/extra.txt': 'not committed\n' });
    const dirty = await runLocalBoundaryHook(deps, input);
    assert.equal(dirty.status, 'failed');
    assert.match(dirty.pending[0] ?? '', /commit or discard the changes/);
    assert.equal(await exists(join(input.worktreePath, 'extra.txt')), true);

    await repo.git('-C', input.worktreePath, 'rm', '-q', '--cached', '--ignore-unmatch', 'extra.txt');
    await repo.write({ '.worktrees/issue-5/README.md': '# from the branch\n' });
    await repo.git('-C', input.worktreePath, 'add', '-A');
    await repo.git('-C', input.worktreePath, 'commit', '-qm', 'branch readme');
    await repo.write({ 'README.md': '# from main\n' });
    await repo.git('commit', '-qam', 'main readme');
    const conflict = await runLocalBoundaryHook(deps, input);
    assert.equal(conflict.status, 'failed');
    assert.match(conflict.effects[0]?.detail ?? '', /CONFLICT|conflict/);
    assert.equal(
      await repo.git('status', '--porcelain', '--untracked-files=no'),
      '',
      'merge aborted, main checkout clean',
    );
    assert.equal(await exists(input.worktreePath), true);
  } finally {
    await repo.cleanup();
  }
});

test('label-only leaves the issue open but still comments', async () => {
  const { repo, input } = await setup();
  try {
    const report = await runLocalBoundaryHook(deps, { ...input, closureAction: 'label-only' });
    assert.equal(report.status, 'success');
    assert.deepEqual(report.effects.find((e) => e.name === 'close-issue')?.status, 'skipped');
    assert.equal((await createLocalIssueStore(repo.dir).read(5)).state, 'open');
  } finally {
    await repo.cleanup();
  }
});

test('label-and-close relabels the local issue (absent labels skipped) and closes it; a re-run finds the labels set', async () => {
  const { repo, input } = await setup();
  try {
    const store = createLocalIssueStore(repo.dir);
    await store.relabel(5, { add: ['agent', 'in-progress'] });
    await repo.git('commit', '-qam', 'label issue 5'); // the store is tracked: keep the main checkout clean
    const labelled = {
      ...input,
      closureAction: 'label-and-close' as const,
      labels: { add: ['done'], remove: ['in-progress', 'never-there'] },
    };
    const report = await runLocalBoundaryHook(deps, labelled);
    assert.equal(report.status, 'success', JSON.stringify(report, null, 2));
    assert.deepEqual(
      report.effects.map((e) => [e.name, e.status]),
      [
        ['merge', 'done'],
        ['comment', 'done'],
        ['label', 'done'],
        ['close-issue', 'done'],
        ['remove-worktree', 'done'],
        ['delete-branch', 'done'],
      ],
    );
    assert.match(report.effects[2]?.detail ?? '', /added done; removed in-progress/);
    const issue = await store.read(5);
    assert.deepEqual(issue.labels, ['agent', 'done']);
    assert.equal(issue.state, 'closed');

    const again = await runLocalBoundaryHook(deps, labelled);
    assert.equal(again.effects[2]?.name, 'label');
    assert.equal(again.effects[2]?.status, 'already-done');
  } finally {
    await repo.cleanup();
  }
});

test('label-only relabels the local issue and must not close it', async () => {
  const { repo, input } = await setup();
  try {
    const report = await runLocalBoundaryHook(deps, {
      ...input,
      closureAction: 'label-only',
      labels: { add: ['needs-review'], remove: [] },
    });
    assert.equal(report.status, 'success', JSON.stringify(report, null, 2));
    assert.deepEqual(report.effects.map((e) => [e.name, e.status]).slice(1, 4), [
      ['comment', 'done'],
      ['label', 'done'],
      ['close-issue', 'skipped'],
    ]);
    const issue = await createLocalIssueStore(repo.dir).read(5);
    assert.equal(issue.state, 'open');
    assert.deepEqual(issue.labels, ['needs-review']);
  } finally {
    await repo.cleanup();
  }
});

test('the dispatcher routes local runs to the local hook', async () => {
  const { repo, input } = await setup();
  try {
    const { runBoundaryHook, boundaryDepsFromEnv } =
      await import('../../../src/activities/deliver/run-boundary-hook.js');
    const report = await runBoundaryHook(boundaryDepsFromEnv({}), input);
    assert.equal(report.status, 'success');
    assert.equal(report.effects[0]?.name, 'merge');
  } finally {
    await repo.cleanup();
  }
});
