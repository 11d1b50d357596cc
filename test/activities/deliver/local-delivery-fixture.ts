/**
 * A real repository for the local boundary hook tests: issue #5 (committed by default,
 * as a user may do) and a worktree on agent/issue-5 with one commit adding hello.txt.
 */
import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BoundaryHookInput, ConditionResult } from '../../../src/contracts/activities.js';
import type { DeliveryMode } from '../../../src/contracts/delivery.js';
import { localIssueSourceFactory, writeLocalIssue } from '../../../src/activities/issues/local-issue-store.js';
import { prepareWorkspace } from '../../../src/activities/workspace/prepare-workspace.js';
import { makeTempGitRepo, type TempGitRepo } from '../../helpers/temp-git-repo.js';

export const deps = { issueSource: localIssueSourceFactory };

export const evidence: ConditionResult[] = [
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

export interface LocalFixture {
  readonly repo: TempGitRepo;
  readonly input: BoundaryHookInput;
  /** The base branch's commit before the hook ran. */
  readonly mainBefore: string;
}

export async function localFixture(
  options: { delivery?: DeliveryMode; trackedIssue?: boolean; issue?: number } = {},
): Promise<LocalFixture> {
  const issue = options.issue ?? 5;
  const repo = await makeTempGitRepo({});
  await writeLocalIssue(repo.dir, { number: issue, title: 'Add greeting', body: 'Please add hello.txt' });
  if (options.trackedIssue === false) await repo.write({ '.git/info/exclude': '.agent/\n' });
  else {
    await repo.git('add', '-A');
    await repo.git('commit', '-qm', `add issue ${issue}`);
  }
  const ws = await prepareWorkspace(deps, {
    repoPath: repo.dir,
    issue,
    issueSource: 'local',
    worktreeRoot: '.worktrees',
    branchPrefix: 'agent',
  });
  await repo.write({ [`.worktrees/issue-${issue}/hello.txt`]: 'hello\n' });
  await repo.git('-C', ws.worktreePath, 'add', 'hello.txt');
  await repo.git('-C', ws.worktreePath, 'commit', '-qm', 'add hello');
  return {
    repo,
    mainBefore: await repo.git('rev-parse', 'main'),
    input: {
      workflowId: `agent-issue-${issue}`,
      mode: 'local',
      delivery: options.delivery ?? 'merge',
      repoPath: repo.dir,
      worktreePath: ws.worktreePath,
      branch: ws.branch,
      baseBranch: ws.baseBranch,
      issue,
      closureAction: 'close',
      labels: { add: [], remove: [] },
      summary: 'Added hello.txt.',
      evidence,
    },
  };
}

export const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Nothing half-done in the user's checkout: no merge in progress, nothing staged or changed. */
export async function assertCheckoutIntact(repo: TempGitRepo, branch = 'main'): Promise<void> {
  assert.equal(await exists(join(repo.dir, '.git', 'MERGE_HEAD')), false, 'no MERGE_HEAD');
  assert.equal(await repo.git('status', '--porcelain', '--untracked-files=no'), '', 'nothing staged or changed');
  assert.equal(await repo.git('branch', '--show-current'), branch, `checkout still on ${branch}`);
}
