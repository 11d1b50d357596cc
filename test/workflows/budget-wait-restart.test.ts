/**
 * A budget pause is durable (issue 40): while the run waits for more budget no activity is
 * pending (it holds no worker slot); its worker is SIGKILLed during the wait, a new worker
 * takes the extension, and the run goes on from the step it stopped at and delivers.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createModelServer } from '../../src/dev/model-server/model-server.js';
import { createSampleRepo, DEMO_DIR } from '../../src/dev/sample-repo.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { localIssuePath } from '../../src/activities/issues/local-issue-store.js';
import { progressQuery, raiseBudgetUpdate } from '../../src/workflows/run/messages.js';
import { runAgentWorkflow } from '../../src/workflows/run-agent.js';
import { serverAddress, teardownEnv, testEnv } from '../helpers/temporal-env.js';
import { until } from '../helpers/until.js';
import { startWorkerProcess } from '../helpers/worker-process.js';

after(teardownEnv);

test(
  'a worker killed while the run waits for budget: a new worker takes the extension',
  { timeout: 240_000 },
  async () => {
    const env = await testEnv();
    const model = await createModelServer({ session: join(DEMO_DIR, 'session.json') });
    const { repoPath, issue } = await createSampleRepo();
    const taskQueue = `budget-restart-${Date.now()}`;
    const workerEnv = {
      TEMPORAL_ADDRESS: serverAddress(env),
      TEMPORAL_TASK_QUEUE: taskQueue,
      ANTHROPIC_BASE_URL: model.url,
      LOG_LEVEL: 'ERROR',
    };
    let first: ChildProcess | undefined = startWorkerProcess(workerEnv);
    let second: ChildProcess | undefined;
    try {
      const handle = await env.client.workflow.start(runAgentWorkflow, {
        taskQueue,
        workflowId: `budget-restart-${Date.now()}`,
        args: [
          {
            issue,
            agentDir: PROJECT_ROOT,
            repoPath,
            issueSource: 'local',
            delivery: 'merge',
            artifactsDir: await mkdtemp(join(tmpdir(), 'artifacts-')),
            budget: { maxTokens: 3000 },
          },
        ],
      });
      // Paused, its notice posted (the notice is an activity of its own), and then nothing pending.
      const paused = await until(
        'the budget pause, posted',
        async () => {
          const p = await handle.query(progressQuery).catch(() => undefined);
          const posted = (await readFile(localIssuePath(repoPath, issue), 'utf8')).includes('Paused: the budget');
          return p?.phase === 'budget-exhausted' && p.waiting?.kind === 'budget' && posted ? p : undefined;
        },
        120_000,
        100,
      );
      const idle = await until(
        'no pending activity',
        async () => ((await handle.describe()).raw.pendingActivities?.length ? undefined : true),
        10_000,
        100,
      );
      assert.equal(idle, true, 'no activity runs while the run waits');
      const requestsBefore = model.stats().requests;

      first.kill('SIGKILL');
      await new Promise((resolve) => first!.once('exit', resolve));
      first = undefined;
      await sleep(1000);
      second = startWorkerProcess(workerEnv);
      const raised = await handle.executeUpdate(raiseBudgetUpdate, { args: [{ maxTokens: 200_000 }] });
      assert.equal(raised.maxTokens, 200_000);
      const result = await handle.result();
      assert.equal(result.outcome, 'success', result.reason);
      assert.ok(model.stats().requests > requestsBefore, 'the run went on after the extension');
      assert.ok(
        result.steps.some((s) => s.stepId === paused.stepId),
        `it went on from ${paused.stepId}`,
      );
    } finally {
      first?.kill('SIGKILL');
      second?.kill('SIGKILL');
      await model.close();
    }
  },
);
