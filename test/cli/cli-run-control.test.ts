/**
 * The client CLI controlling a live run, as processes against the real test server:
 * `start-run` (serving the run in-process: no worker polls the queue) runs in the
 * background while the offline model server makes the continuation step slow, and
 *   - a second `start-run --detach` attaches instead of starting a second run,
 *   - `status` prints the phase, step and definition hash,
 *   - `cancel` (or `temporal workflow signal --name cancel`) ends the run 'cancelled'
 *     with its worktree kept, and the background start-run exits non-zero,
 *   - `temporal workflow signal --name retry --input '{"prompt":...}'` makes the
 *     prompt the next iteration's prompt.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { RunProgress, RunResult } from '../../src/contracts/run.js';
import { createModelServer, type ModelServer } from '../../src/dev/model-server/model-server.js';
import type { SessionRule, SessionScript } from '../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { createSampleRepo } from '../../src/dev/sample-repo.js';
import { progressQuery } from '../../src/workflows/run/messages.js';
import { repoIdentity, workflowIdFor } from '../../src/host/repo-identity.js';
import { serverAddress, teardownEnv, temporalCliPath, testEnv } from '../helpers/temporal-env.js';
import { until } from '../helpers/until.js';
import { assertNoStack, describeResult, runCli, startCli, type CliResult, type RunningCli } from './cli-process.js';
import { defaultWorktreeOf } from '../helpers/worktree-path.js';
import { readRunResult } from '../../src/host/run-result.js';

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const CONTINUATION_RULES = new Set(['work-edit', 'work-test-commit', 'work-answer']);
const OPERATOR_NOTE = 'OPERATOR-NOTE-123';
const SLOW_EDIT = 'work-edit-slow';
/**
 * How long each continuation response is held in the cancel tests: the window in which the
 * operator acts (attach, two status calls and the cancel are four CLI processes, slow on a
 * loaded machine). The cancel ends the step, so the length costs nothing.
 */
const CANCEL_WINDOW_MS = 60_000;

let env: TestWorkflowEnvironment;
let address: string;
let temporalCli: string;

before(async () => {
  env = await testEnv();
  address = serverAddress(env);
  temporalCli = temporalCliPath();
});

after(teardownEnv);

const demoSession = JSON.parse(readFileSync(join(PROJECT_ROOT, 'demo', 'session.json'), 'utf8')) as SessionScript;

/** The demo session with every continuation response delayed by `delayMs`. */
function slowSession(delayMs: number, extraFirst: readonly SessionRule[] = []): SessionScript {
  return {
    ...demoSession,
    name: `cli run control: continuation delayed ${delayMs} ms`,
    rules: [
      ...extraFirst,
      ...demoSession.rules.map((rule) =>
        CONTINUATION_RULES.has(rule.id) ? { ...rule, respond: { ...rule.respond, delayMs } } : rule,
      ),
    ],
  };
}

/**
 * The demo session with only the continuation step's first request (work-edit) delayed by
 * `delayMs`: the window to kill a worker in; the step's attempt after the kill answers at once.
 */
function slowOnceSession(delayMs: number): SessionScript {
  const edit = demoSession.rules.find((rule) => rule.id === 'work-edit');
  assert.ok(edit, 'demo/session.json has a work-edit rule');
  const slowEdit: SessionRule = { ...edit, id: SLOW_EDIT, times: 1, respond: { ...edit.respond, delayMs } };
  return {
    ...demoSession,
    name: `cli run control: first edit delayed ${delayMs} ms`,
    rules: [slowEdit, ...demoSession.rules],
  };
}

/** The continuation step's first request reached the model server (delayed or not). */
const editAsked = (model: ModelServer): boolean =>
  (model.stats().byRule['work-edit'] ?? 0) + (model.stats().byRule[SLOW_EDIT] ?? 0) >= 1;

function answerOf(id: string): unknown {
  const rule = demoSession.rules.find((r) => r.id === id);
  assert.ok(rule?.respond.json, `demo/session.json has a ${id} rule`);
  return rule.respond.json;
}

interface Fixture {
  readonly repoPath: string;
  /** The run's Workflow ID, `<repo-id>/issue-agent/issue-1` (the repository is the fixture's own). */
  readonly workflowId: string;
  readonly model: ModelServer;
  readonly childEnv: Record<string, string>;
  readonly taskQueue: string;
  readonly children: RunningCli[];
}

/** A sample repository, the model server and the children's environment; always cleaned up. */
async function withFixture(session: SessionScript, fn: (f: Fixture) => Promise<void>): Promise<void> {
  const { repoPath } = await createSampleRepo();
  const workflowId = workflowIdFor((await repoIdentity(repoPath)).id, 'issue-agent', 1);
  const model = await createModelServer({ session });
  const taskQueue = `cli-run-control-${randomUUID()}`;
  const fixture: Fixture = {
    repoPath,
    workflowId,
    model,
    taskQueue,
    childEnv: {
      TEMPORAL_ADDRESS: address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      ANTHROPIC_BASE_URL: model.url,
      LOG_LEVEL: 'ERROR',
    },
    children: [],
  };
  try {
    await fn(fixture);
  } finally {
    for (const child of fixture.children) child.kill();
    await Promise.allSettled(fixture.children.map((c) => c.done));
    // A run left behind (a failed assertion) must not outlive its test.
    await env.client.workflow
      .getHandle(workflowId)
      .describe()
      .then((d) =>
        d.status.name === 'RUNNING' ? env.client.workflow.getHandle(workflowId).terminate('test cleanup') : undefined,
      )
      .catch(() => undefined);
    await model.close();
    await rm(repoPath, { recursive: true, force: true });
  }
}

/** `start-run --issue 1 --repo <repo> --json` in the background. */
function startRunInBackground(f: Fixture): RunningCli {
  const running = startCli(['start-run', '--issue', '1', '--repo', f.repoPath, '--json'], {
    env: f.childEnv,
    timeoutMs: 200_000,
  });
  f.children.push(running);
  return running;
}

/**
 * The progress of this fixture's live run; undefined while it is not running on the
 * fixture's task queue (a query on a closed run would wait for a worker nobody runs).
 */
async function progress(f: Fixture): Promise<RunProgress | undefined> {
  const handle = env.client.workflow.getHandle(f.workflowId);
  const description = await handle.describe().catch(() => undefined);
  if (description?.status.name !== 'RUNNING' || description.taskQueue !== f.taskQueue) return undefined;
  return Promise.race([handle.query(progressQuery).catch(() => undefined), sleep(5_000).then(() => undefined)]);
}

/**
 * Waits until the continuation step's first model request reached the model server
 * (its prompt is taken, its response is delayed): the window for operator actions.
 */
async function waitForSlowStep(f: Fixture, background: RunningCli, timeoutMs = 120_000): Promise<RunProgress> {
  return until(
    () =>
      `the run to reach the slow continuation step; model stats ${JSON.stringify(f.model.stats())}; stderr so far:\n${background.out.stderr}`,
    async () => {
      if (background.child.exitCode !== null) {
        assert.fail(`the background start-run exited early:\n${describeResult(await background.done)}`);
      }
      const p = await progress(f);
      return p?.stepId === 'continuation.implement' && editAsked(f.model) ? p : undefined;
    },
    timeoutMs,
  );
}

async function runsOf(workflowId: string, taskQueue: string): Promise<number> {
  let n = 0;
  for await (const execution of env.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    if (execution.taskQueue === taskQueue) n += 1;
  }
  return n;
}

function parseJsonResult(result: CliResult): RunResult & { workflowId: string; url: string } {
  const line = result.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as RunResult & { workflowId: string; url: string };
  } catch {
    assert.fail(`start-run --json printed no JSON result:\n${describeResult(result)}`);
  }
}

async function assertCancelled(f: Fixture, background: RunningCli, expectedReason: RegExp): Promise<void> {
  const result = await background.done;
  assert.equal(result.timedOut, false, `the background start-run did not finish:\n${describeResult(result)}`);
  assert.ok(result.code !== null && result.code !== 0, `a cancelled run exits non-zero:\n${describeResult(result)}`);
  assertNoStack(result);
  const json = parseJsonResult(result);
  assert.equal(json.workflowId, f.workflowId);
  assert.equal(json.outcome, 'cancelled', describeResult(result));
  assert.match(json.reason, expectedReason);
  const worktree = await defaultWorktreeOf(f.repoPath, 1);
  assert.ok(existsSync(worktree), `the worktree ${worktree} is kept after a cancel`);
  assert.equal(json.worktreePath, worktree);
  // The run never reached the closure step.
  assert.equal(f.model.stats().byRule['closure-answer'], undefined);
  const description = await env.client.workflow.getHandle(f.workflowId).describe();
  // One outcome however it was cancelled: `issue-agent cancel` (signal and cancel request) and the
  // bare signal (the Web UI's Signal dialog; the run then requests its own cancellation) alike.
  assert.equal(description.status.name, 'CANCELLED', 'the Web UI status column tells the truth');
}

/** `temporal workflow signal` of the run, as an operator would send it from a shell. */
async function temporalSignal(f: Fixture, name: string, input: string): Promise<void> {
  await promisify(execFile)(
    temporalCli,
    [
      'workflow',
      'signal',
      '--address',
      address,
      '--namespace',
      env.namespace ?? 'default',
      '--workflow-id',
      f.workflowId,
      '--name',
      name,
      '--input',
      input,
    ],
    { timeout: 60_000 },
  );
}

/**
 * The cases are independent (each its own sample repository, so its own Workflow ID, model
 * server, task queue and CLI processes) and spend most of their time waiting on those
 * processes: they run at once.
 */
describe('the CLI controlling a live run', { concurrency: true }, () => {
  it('attach, status and cancel through the CLI while a run is in flight', { timeout: 240_000 }, async (t) => {
    await withFixture(slowSession(CANCEL_WINDOW_MS), async (f) => {
      const background = startRunInBackground(f);
      const p = await waitForSlowStep(f, background);
      assert.equal(await runsOf(f.workflowId, f.taskQueue), 1);
      assert.match(background.out.stderr, new RegExp(`started run ${escaped(f.workflowId)}`));
      assert.match(background.out.stderr, /serving the run in this process/);

      // (a) a second start-run attaches to the live run instead of starting another one.
      const attach = await runCli(['start-run', '--issue', '1', '--repo', f.repoPath, '--detach'], {
        env: f.childEnv,
        timeoutMs: 60_000,
      });
      assert.equal(attach.code, 0, describeResult(attach));
      assertNoStack(attach);
      assert.match(attach.stderr, /attached/, describeResult(attach));
      assert.match(attach.stderr, new RegExp(escaped(f.workflowId)));
      assert.equal(await runsOf(f.workflowId, f.taskQueue), 1, 'attaching does not start a second run');

      // (b) status prints the phase, the step and the definition hash.
      const status = await runCli(['status', '--issue', '1', '--repo', f.repoPath], {
        env: f.childEnv,
        timeoutMs: 60_000,
      });
      assert.equal(status.code, 0, describeResult(status));
      assertNoStack(status);
      assert.match(status.stdout, new RegExp(`${escaped(f.workflowId)} \\(RUNNING\\)`), describeResult(status));
      assert.match(status.stdout, /continuation\.implement/, describeResult(status));
      assert.match(status.stdout, /· flow ·/, describeResult(status));
      assert.ok(p.definitionHash.length >= 12, 'the run reports its definition hash');
      assert.ok(
        status.stdout.includes(p.definitionHash.slice(0, 12)),
        `status shows the definition hash ${p.definitionHash}:\n${status.stdout}`,
      );
      assert.ok(status.stdout.includes(await defaultWorktreeOf(f.repoPath, 1)), 'status shows the worktree');

      // status --json carries the same, machine-readable.
      const statusJson = await runCli(['status', '--issue', '1', '--repo', f.repoPath, '--json'], {
        env: f.childEnv,
        timeoutMs: 60_000,
      });
      assert.equal(statusJson.code, 0, describeResult(statusJson));
      const parsed = JSON.parse(statusJson.stdout) as { status: string; progress: RunProgress };
      assert.equal(parsed.status, 'RUNNING');
      assert.equal(parsed.progress.stepId, 'continuation.implement');
      assert.equal(parsed.progress.definitionHash, p.definitionHash);

      // (c) cancel: the background start-run ends 'cancelled', non-zero, worktree kept.
      const requestsAtCancel = f.model.stats().requests;
      const cancel = await runCli(
        ['cancel', '--issue', '1', '--repo', f.repoPath, '--reason', 'operator stop from the test'],
        {
          env: f.childEnv,
          timeoutMs: 60_000,
        },
      );
      assert.equal(cancel.code, 0, describeResult(cancel));
      assertNoStack(cancel);
      assert.match(cancel.stdout, new RegExp(`cancel signalled to ${escaped(f.workflowId)}`));
      const cancelledAt = Date.now();
      await assertCancelled(f, background, /operator stop from the test/);
      const waited = Date.now() - cancelledAt;
      t.diagnostic(`start-run ended ${waited} ms after the cancel command returned`);
      assert.ok(waited < 90_000, `start-run took ${waited} ms to end after the cancel`);
      const requestsAfterCancel = f.model.stats().requests - requestsAtCancel;

      // "the running step stops": no further model turn after the cancel, and promptly.
      // Cancellation reaches the step's activity on its next heartbeat to the server; the
      // worker throttles heartbeats to at most 2 s (maxHeartbeatThrottleInterval).
      await t.test('the running step stops promptly on cancel', () => {
        assert.equal(
          requestsAfterCancel,
          0,
          `the step made ${requestsAfterCancel} more model request(s) after the cancel`,
        );
        assert.ok(waited < 15_000, `start-run took ${waited} ms to end after the cancel`);
      });

      // After the run: status shows its result.
      const afterRun = await runCli(['status', '--issue', '1', '--repo', f.repoPath], {
        env: f.childEnv,
        timeoutMs: 60_000,
      });
      assert.equal(afterRun.code, 0, describeResult(afterRun));
      assert.match(afterRun.stdout, /outcome: cancelled/, describeResult(afterRun));
    });
  });

  it('the same cancel sent with the temporal CLI behaves the same', { timeout: 240_000 }, async (t) => {
    await withFixture(slowSession(CANCEL_WINDOW_MS), async (f) => {
      const background = startRunInBackground(f);
      await waitForSlowStep(f, background);
      await temporalSignal(f, 'cancel', '{}');
      const signalledAt = Date.now();
      await assertCancelled(f, background, /cancel requested/);
      t.diagnostic(`start-run ended ${Date.now() - signalledAt} ms after temporal workflow signal returned`);
    });
  });

  it(
    'a retry signal with a prompt from the temporal CLI adds guidance to the next prompt',
    { timeout: 240_000 },
    async () => {
      const operatorRule: SessionRule = {
        id: 'operator-note',
        // Matches only a prompt holding both the review step's own prompt and the guidance.
        when: { promptContains: ['Step verification.review', '<operator_guidance>', OPERATOR_NOTE], turn: 0 },
        respond: { json: answerOf('review-pass') },
      };
      await withFixture(slowSession(3_000, [operatorRule]), async (f) => {
        const background = startRunInBackground(f);
        await waitForSlowStep(f, background);
        await temporalSignal(f, 'retry', JSON.stringify({ prompt: OPERATOR_NOTE }));
        const pending = await progress(f);
        assert.equal(pending?.pendingRetryPrompt, true, `the retry prompt is pending: ${JSON.stringify(pending)}`);

        const result = await background.done;
        assert.equal(result.timedOut, false, describeResult(result));
        assertNoStack(result);
        const stats = f.model.stats();
        // The implement step finished with its own prompt; the next iteration (review)
        // was asked its own C3L prompt with the operator's guidance added.
        assert.equal(stats.byRule['work-answer'], 1, JSON.stringify(stats));
        assert.equal(
          stats.byRule['operator-note'],
          1,
          `the operator's prompt reached the model: ${JSON.stringify(stats)}`,
        );
        assert.equal(
          stats.byRule['review-diff'],
          undefined,
          `the review prompt carried the guidance: ${JSON.stringify(stats)}`,
        );
        assert.equal(stats.unmatched, 0, JSON.stringify(stats));
        const json = parseJsonResult(result);
        assert.equal(json.outcome, 'success', describeResult(result));
        assert.equal(result.code, 0, describeResult(result));
        assert.deepEqual(
          json.steps.map((s) => s.stepId),
          [
            'initial.understand',
            'continuation.reproduce',
            'continuation.implement',
            'verification.review',
            'closure.issue',
          ],
        );
      });
    },
  );

  it(
    'a worker killed mid-step: the attached start-run takes over and the step runs again at once',
    { timeout: 240_000 },
    async () => {
      await withFixture(slowOnceSession(6_000), async (f) => {
        const worker = await startWorker(f);
        const background = startRunInBackground(f);
        await waitForSlowStep(f, background);
        assert.doesNotMatch(
          background.out.stderr,
          /serving the run in this process/,
          'the worker process serves the run',
        );
        const killedAt = Date.now();
        worker.kill();
        const result = await background.done;
        const afterKillMs = Date.now() - killedAt;
        assert.equal(result.code, 0, describeResult(result));
        assertNoStack(result);
        assert.equal(parseJsonResult(result).outcome, 'success', describeResult(result));
        assert.match(
          result.stderr,
          /any more \(the one that did is gone\): serving in this process/,
          describeResult(result),
        );
        // Without the release the step waits for its 60 s heartbeat timeout.
        assert.match(
          result.stderr,
          /the worker that ran queryStep \(pid \d+\) is gone: that step is retried now/,
          describeResult(result),
        );
        assert.ok(afterKillMs < 50_000, `the run ended ${afterKillMs} ms after the kill (heartbeat timeout 60 s)`);
      });
    },
  );

  /** `issue-agent worker` in the background; resolves once it polls. */
  async function startWorker(f: Fixture): Promise<RunningCli> {
    const worker = startCli(['worker'], { env: f.childEnv, timeoutMs: 200_000 });
    f.children.push(worker);
    // true once it polls, false if it exits first or not within 90 s (then its output says why).
    const polled = await until(
      'the worker to poll',
      () => (/worker polling/.test(worker.out.stdout) ? true : worker.child.exitCode !== null ? false : undefined),
      90_000,
      100,
    ).catch(() => false);
    if (!polled) assert.fail(`the worker never polled:\n${describeResult(await worker.done)}`);
    return worker;
  }

  it('a worker started after a crash runs the dead worker’s step again at once', { timeout: 240_000 }, async () => {
    await withFixture(slowOnceSession(6_000), async (f) => {
      const first = await startWorker(f);
      const detached = await runCli(['start-run', '--issue', '1', '--repo', f.repoPath, '--detach'], {
        env: f.childEnv,
        timeoutMs: 60_000,
      });
      assert.equal(detached.code, 0, describeResult(detached));
      await until(
        () => `the run to reach its slow step:\n${first.out.stderr}`,
        () => (editAsked(f.model) ? true : undefined),
        120_000,
        100,
      );
      first.kill();
      await first.done;
      const second = await startWorker(f);
      const handle = env.client.workflow.getHandle(f.workflowId);
      const result = await readRunResult(handle);
      assert.equal((result as RunResult).outcome, 'success');
      assert.match(
        second.out.stdout,
        /: the worker that ran queryStep \(pid \d+\) is gone: that step is retried now/,
        second.out.stdout,
      );
      // The retried attempt started because the step was released (WORKER_GONE), not after
      // its 60 s heartbeat timeout: the history says so, whatever the machine's load.
      const retried = ((await handle.fetchHistory()).events ?? [])
        .map((e) => e.activityTaskStartedEventAttributes)
        .filter((a) => (a?.attempt ?? 1) > 1);
      assert.ok(retried.length > 0, 'a step attempt was retried');
      for (const attempt of retried) {
        assert.ok(!attempt?.lastFailure?.timeoutFailureInfo, 'not a heartbeat timeout');
        assert.equal(attempt?.lastFailure?.applicationFailureInfo?.type, 'WORKER_GONE');
      }
    });
  });
});
