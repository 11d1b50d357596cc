/**
 * `issue-agent reset --to-step 2` on a real run, as a CLI process against the real test
 * server, with the run served by an in-process worker (real git, real tools, the offline
 * model server playing a scripted session):
 *   step 1 writes one.txt (untracked); step 2 commits it and writes two.txt (untracked);
 *   step 3 commits three.txt, deletes two.txt and aborts: the run fails, worktree kept.
 *   `reset --to-step 2` sends the run back to right after step 2: step 3 runs again and
 *   must find step 2's files (two.txt back, three.txt and its commit gone), then the run
 *   closes and delivers its branch. Without the restore, three.txt would be delivered.
 * Also: a step the run never completed, and a run whose worktree is gone, are clear errors.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { RunInput } from '../../src/contracts/run.js';
import { createDefaultDeps } from '../../src/activities/deps.js';
import { git } from '../../src/activities/workspace/git/git.js';
import { readRunResult } from '../../src/host/run-result.js';
import { createModelServer } from '../../src/dev/model-server/model-server.js';
import type { SessionRule, SessionScript } from '../../src/dev/model-server/session-script.js';
import { createSampleRepo } from '../../src/dev/sample-repo.js';
import { repoIdentity, workflowIdFor } from '../../src/host/repo-identity.js';
import { createRunWorker } from '../../src/worker/create-run-worker.js';
import { runAgentWorkflow } from '../../src/workflows/run-agent.js';
import { serverAddress, teardownEnv, testEnv, workflowBundle } from '../helpers/temporal-env.js';
import { assertCleanFailure, describeResult, runCli } from './cli-process.js';
import { defaultWorktreeOf } from '../helpers/worktree-path.js';

const AGENT = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'agents', 'checkpoints');

let env: TestWorkflowEnvironment;
before(async () => {
  env = await testEnv();
});
after(teardownEnv);

const bash = (command: string) => ({ toolUse: [{ name: 'bash', input: { command } }] });
const answer = (stepId: string, action: string) => ({
  json: { stepId, summary: `${stepId}: ${action}`, next_action: { action } },
});
function rule(id: string, step: string, turn: number, respond: SessionRule['respond'], extra = {}): SessionRule {
  return { id, when: { promptContains: `Step ${step}:`, turn }, respond, ...extra };
}

const SESSION: SessionScript = {
  name: 'reset to step 2',
  rules: [
    rule('one-write', 'initial.one', 0, bash('echo one > one.txt')),
    rule('one-answer', 'initial.one', 1, answer('initial.one', 'next')),
    rule(
      'two-write',
      'continuation.two',
      0,
      bash("git add one.txt && git commit -qm 'step one' && echo two > two.txt"),
    ),
    rule('two-answer', 'continuation.two', 1, answer('continuation.two', 'next')),
    // First visit of step 3: its own commit, a deletion, a new file; then it gives up.
    rule(
      'three-write',
      'continuation.three',
      0,
      bash("echo three > three.txt && rm two.txt && git add -A && git commit -qm 'step three'"),
      { times: 1 },
    ),
    rule('three-abort', 'continuation.three', 1, answer('continuation.three', 'abort'), { times: 1 }),
    // Second visit, after the reset: records what it finds and commits everything.
    rule('three-again', 'continuation.three', 0, bash('ls > listing.txt && git add -A && git commit -qm after-reset')),
    rule('three-next', 'continuation.three', 1, answer('continuation.three', 'next')),
    rule('close', 'closure.done', 0, answer('closure.done', 'closing')),
  ],
};

test('reset --to-step 2 brings back step 2 files and the run completes from step 3', { timeout: 240_000 }, async () => {
  const { repoPath } = await createSampleRepo();
  const model = await createModelServer({ session: SESSION });
  const taskQueue = `reset-${randomUUID()}`;
  const workflowId = workflowIdFor((await repoIdentity(repoPath)).id, 'checkpoints', 1);
  const artifactsDir = await mkdtemp(join(tmpdir(), 'issue-agent-artifacts-'));
  const { worker } = await createRunWorker({
    address: '',
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    deps: createDefaultDeps({ PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_BASE_URL: model.url }),
    workflowBundle: await workflowBundle(),
  });
  const cliEnv = { TEMPORAL_ADDRESS: serverAddress(env), TEMPORAL_TASK_QUEUE: taskQueue, LOG_LEVEL: 'ERROR' };
  const reset = (...args: string[]) =>
    runCli(['reset', '--issue', '1', '--repo', repoPath, '--agent', AGENT, ...args], {
      env: cliEnv,
      timeoutMs: 60_000,
    });
  const input: RunInput = {
    issue: 1,
    agentDir: AGENT,
    repoPath,
    issueSource: 'local',
    delivery: 'branch',
    artifactsDir,
  };
  const worktree = await defaultWorktreeOf(repoPath, 1);
  const inRepo = async (...args: string[]) => (await git(repoPath, args)).stdout.trim();
  try {
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(runAgentWorkflow, { taskQueue, workflowId, args: [input] });
      const first = await readRunResult(handle);
      assert.equal(first.outcome, 'failed', first.reason);
      assert.equal(first.code, 'ABORTED');
      assert.ok(existsSync(join(worktree, 'three.txt')), 'step 3 wrote three.txt');
      assert.equal(existsSync(join(worktree, 'two.txt')), false, 'step 3 deleted two.txt');
      const checkpoints = first.steps.map((s) => s.checkpoint);
      assert.equal(checkpoints.length, 3);
      for (const [i, commit] of checkpoints.entries()) {
        assert.match(commit ?? '', /^[0-9a-f]{40}$/, 'each step result carries its checkpoint');
        assert.equal(await inRepo('rev-parse', `refs/agent/checkpoints/issue-1/step-${i + 1}`), commit);
      }

      const noSuchStep = await reset('--to-step', '7');
      assertCleanFailure(noSuchStep, {
        mentions: ['no completed step 7', '1 (initial.one)', '3 (continuation.three)'],
      });

      const done = await reset('--to-step', '2');
      assert.equal(done.code, 0, describeResult(done));
      assert.match(done.stdout, /to after step 2 \(continuation\.two\)/);
      assert.match(done.stdout, /step 3 runs next/);

      const second = await readRunResult(env.client.workflow.getHandle(workflowId));
      assert.equal(second.outcome, 'success', second.reason);
      assert.deepEqual(
        second.steps.map((s) => `${s.iteration}:${s.stepId}`),
        ['1:initial.one', '2:continuation.two', '3:continuation.three', '4:closure.done'],
        'steps 1 and 2 kept from history, 3 and 4 run again',
      );
      assert.equal(second.steps[1]?.checkpoint, checkpoints[1], 'step 2 is the same step, from history');
    });

    // Delivered as a branch: what step 3 saw the second time is on it.
    const branch = 'agent/issue-1';
    const files = (await inRepo('ls-tree', '-r', '--name-only', branch)).split('\n');
    assert.ok(files.includes('two.txt'), 'two.txt (untracked at step 2) was restored');
    assert.ok(files.includes('one.txt'));
    assert.equal(files.includes('three.txt'), false, 'the first step 3 wrote three.txt; the restore removed it');
    const listing = await inRepo('show', `${branch}:listing.txt`);
    assert.match(listing, /^two\.txt$/m);
    assert.doesNotMatch(listing, /three/);
    const log = await inRepo('log', '--format=%s', `main..${branch}`);
    assert.deepEqual(log.split('\n'), ['after-reset', 'step one'], 'the first step 3 commit left the branch');
    assert.equal(model.stats().unmatched, 0);

    // The worktree went with the delivery, and its checkpoint refs with it.
    assert.equal(existsSync(worktree), false);
    assert.equal(await inRepo('for-each-ref', 'refs/agent/'), '');
    const gone = await reset('--to-step', '2');
    assertCleanFailure(gone, { mentions: ['worktree', 'is gone'] });
  } finally {
    await model.close();
    await rm(repoPath, { recursive: true, force: true });
    await rm(artifactsDir, { recursive: true, force: true });
  }
});
