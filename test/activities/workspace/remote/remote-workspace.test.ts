/**
 * A remote repository's run on two hosts, without Temporal: host A clones the `file://`
 * remote into its state dir, works a step and pushes its checkpoint; host B, another
 * state dir, prepares the run at that checkpoint and finds the step's files and branch;
 * delivery pushes the branch once and deletes the checkpoint refs. An unreachable URL is
 * an error naming the URL without its credentials.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentError } from '../../../../src/contracts/errors.js';
import { checkpointRef } from '../../../../src/contracts/worktree-checkpoint.js';
import { createIssueSourceFactory } from '../../../../src/activities/issues/issue-source-factory.js';
import { createGitHubConnector } from '../../../../src/activities/github/github-connector.js';
import { git, gitOrThrow } from '../../../../src/activities/workspace/git/git.js';
import { recordWorktreeCheckpoint } from '../../../../src/activities/workspace/checkpoints/record-checkpoint.js';
import { createRemoteGit } from '../../../../src/activities/workspace/remote/remote-git.js';
import { ensureRepoCache } from '../../../../src/activities/workspace/remote/repo-cache.js';
import { repoCacheDir } from '../../../../src/activities/workspace/remote/repo-cache-layout.js';
import { prepareRemoteWorkspace } from '../../../../src/activities/workspace/remote/prepare-remote-workspace.js';
import { publishCheckpoint } from '../../../../src/activities/workspace/remote/remote-checkpoints.js';
import { runRemoteBoundaryHook } from '../../../../src/activities/deliver/remote-boundary-hook.js';
import { createRemoteSampleRepo, remoteRefs } from '../../../workflows/fleet/remote-fixture.js';

const env = { PATH: process.env.PATH, HOME: process.env.HOME };
const remoteGit = createRemoteGit(env);
const issueSource = createIssueSourceFactory(env);
const WORKFLOW_ID = 'sample-0000/default/issue-1';
const IDENTITY = ['-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false'];

const input = (url: string, resumeAt?: string) => ({
  repoPath: url,
  issue: 1,
  issueSource: 'local' as const,
  worktreeRoot: undefined,
  branchPrefix: 'agent',
  ...(resumeAt === undefined ? {} : { resumeAt }),
});

test('an unreachable URL names the URL without its credentials', async () => {
  const stateDir = await mkdtemp(join(tmpdir(), 'state-'));
  const secret = ['s3cr', 'et-value'].join('');
  await assert.rejects(
    ensureRepoCache(remoteGit, stateDir, `https://user:${secret}@127.0.0.1:9/none.git`),
    (err: unknown) => {
      assert.ok(AgentError.isInstance(err));
      assert.equal(err.code, 'REPO_NOT_FOUND');
      assert.match(err.message, /cannot reach https:\/\/127\.0\.0\.1:9\/none\.git/);
      assert.ok(!err.message.includes(secret), err.message);
      return true;
    },
  );
});

test('a step checkpoint pushed by host A is where host B continues; delivery pushes once', async () => {
  const { url, barePath } = await createRemoteSampleRepo();
  const stateA = await mkdtemp(join(tmpdir(), 'state-a-'));
  const stateB = await mkdtemp(join(tmpdir(), 'state-b-'));
  const scope = { workflowId: WORKFLOW_ID, runId: 'run-1', activityId: '1' };

  const onA = await prepareRemoteWorkspace({ issueSource, remoteGit, stateDir: stateA }, input(url), scope);
  assert.ok(onA.worktreePath.startsWith(stateA) || onA.worktreePath.includes('state-a-'), onA.worktreePath);
  assert.equal(onA.branch, 'agent/issue-1');
  assert.equal(onA.baseBranch, 'main');
  assert.equal(onA.issue.number, 1);
  // Step 1: a commit on the branch and an uncommitted file, checkpointed and pushed.
  await writeFile(join(onA.worktreePath, 'committed.txt'), 'one\n');
  await gitOrThrow(onA.worktreePath, ['add', 'committed.txt'], 'WORKTREE_FAILED');
  await gitOrThrow(onA.worktreePath, [...IDENTITY, 'commit', '-q', '-m', 'step 1'], 'WORKTREE_FAILED');
  await writeFile(join(onA.worktreePath, 'draft.txt'), 'draft\n');
  const ref = checkpointRef(WORKFLOW_ID, 1, 1);
  const { commit } = await recordWorktreeCheckpoint(onA.worktreePath, ref, 'checkpoint 1');
  await publishCheckpoint(remoteGit, onA.worktreePath, ref, commit);
  assert.deepEqual(
    [...(await remoteRefs(barePath, 'refs/issue-agent/')).entries()],
    [['refs/issue-agent/default/issue-1/step-1', commit]],
  );

  // Host A is gone: host B prepares the run at the checkpoint.
  const onB = await prepareRemoteWorkspace({ issueSource, remoteGit, stateDir: stateB }, input(url, commit), {
    ...scope,
    activityId: '9',
  });
  assert.ok(onB.worktreePath.includes('state-b-'), onB.worktreePath);
  assert.equal(await readFile(join(onB.worktreePath, 'committed.txt'), 'utf8'), 'one\n');
  assert.equal(await readFile(join(onB.worktreePath, 'draft.txt'), 'utf8'), 'draft\n');
  const head = await gitOrThrow(onB.worktreePath, ['log', '-1', '--format=%s'], 'WORKTREE_FAILED');
  assert.equal(head, 'step 1', 'the branch is where step 1 left it');
  assert.equal(onB.baseBranch, 'main');

  // Delivery from host B: the draft is committed first (delivery wants a clean worktree).
  await gitOrThrow(onB.worktreePath, ['add', 'draft.txt'], 'WORKTREE_FAILED');
  await gitOrThrow(onB.worktreePath, [...IDENTITY, 'commit', '-q', '-m', 'step 2'], 'WORKTREE_FAILED');
  const cache = repoCacheDir(stateB, url);
  const hook = {
    workflowId: WORKFLOW_ID,
    mode: 'local' as const,
    delivery: 'branch' as const,
    repoPath: cache,
    worktreePath: onB.worktreePath,
    branch: onB.branch,
    baseBranch: onB.baseBranch,
    issue: 1,
    closureAction: 'close' as const,
    labels: { add: [], remove: [] },
    summary: 'done',
    evidence: [],
  };
  const deps = { issueSource, gitHub: createGitHubConnector(env), env, remoteGit };
  const first = await runRemoteBoundaryHook(deps, hook, url);
  assert.equal(first.status, 'success', JSON.stringify(first));
  assert.equal(first.effects.find((e) => e.name === 'push')?.status, 'done');
  assert.equal(first.effects.find((e) => e.name === 'checkpoint-refs')?.status, 'done');
  const heads = await remoteRefs(barePath, 'refs/heads/');
  const tip = await gitOrThrow(cache, ['rev-parse', 'refs/heads/agent/issue-1'], 'WORKTREE_FAILED');
  assert.equal(heads.get('refs/heads/agent/issue-1'), tip);
  assert.equal((await remoteRefs(barePath, 'refs/issue-agent/')).size, 0);
  // The local issue is a file of the repository: its closing is a commit on the pushed branch,
  // not an edit in this worker's clone that nobody sees.
  assert.equal(first.effects.find((e) => e.name === 'issue-commit')?.status, 'done', JSON.stringify(first));
  const issueOnBranch = await git(barePath, ['show', 'agent/issue-1:.agent/issues/1.md']);
  assert.match(issueOnBranch.stdout, /state: closed/);
  assert.match(issueOnBranch.stdout, /The work is on branch `agent\/issue-1`/);
  assert.equal(
    (await git(barePath, ['log', '-1', '--format=%s', 'agent/issue-1'])).stdout,
    'Close issue #1 (issue-agent)',
  );
  assert.match((await git(barePath, ['show', 'main:.agent/issues/1.md'])).stdout, /state: open/, 'main is untouched');
  assert.match(
    await readFile(join(cache, '.agent', 'issues', '1.md'), 'utf8'),
    /state: open/,
    'the clone is untouched',
  );
  const again = await runRemoteBoundaryHook(deps, hook, url);
  assert.equal(again.effects.find((e) => e.name === 'push')?.status, 'already-done', JSON.stringify(again));
  assert.equal(again.effects.find((e) => e.name === 'issue-commit')?.status, 'already-done', JSON.stringify(again));
  assert.equal((await git(barePath, ['rev-list', '--count', 'agent/issue-1'])).stdout, '5');
  assert.match(await readFile(join(cache, '.agent', 'issues', '1.md'), 'utf8'), /state: open/, 'a re-run adds nothing');
});
