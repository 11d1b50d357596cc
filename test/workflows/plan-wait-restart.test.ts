/**
 * A plan's wait for approval is durable (issue 40): while the run waits no activity is
 * pending (no worker slot); its worker is SIGKILLed during the wait, a new worker takes
 * `/approve`, and the run goes on past the plan without making it again, and delivers.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createModelServer } from '../../src/dev/model-server/model-server.js';
import { createSampleRepo } from '../../src/dev/sample-repo.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { localIssuePath } from '../../src/activities/issues/local-issue-store.js';
import { answerUpdate, progressQuery } from '../../src/workflows/run/messages.js';
import { runAgentWorkflow } from '../../src/workflows/run-agent.js';
import { serverAddress, teardownEnv, testEnv } from '../helpers/temporal-env.js';
import { until } from '../helpers/until.js';
import { startWorkerProcess } from '../helpers/worker-process.js';
import { planSession } from './plan-session.js';

after(teardownEnv);

test(
  'a worker killed while the plan waits for approval: a new worker takes /approve',
  { timeout: 240_000 },
  async () => {
    const env = await testEnv();
    const model = await createModelServer({ session: planSession() });
    const { repoPath, issue } = await createSampleRepo();
    const taskQueue = `plan-restart-${Date.now()}`;
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
        workflowId: `plan-restart-${Date.now()}`,
        args: [
          {
            issue,
            agentDir: PROJECT_ROOT,
            repoPath,
            issueSource: 'local',
            delivery: 'merge',
            artifactsDir: await mkdtemp(join(tmpdir(), 'artifacts-')),
            planApproval: 'always',
          },
        ],
      });
      await until(
        'the plan posted',
        async () => {
          const p = await handle.query(progressQuery).catch(() => undefined);
          const posted = (await readFile(localIssuePath(repoPath, issue), 'utf8')).includes(
            'The plan, for your approval',
          );
          return p?.waiting?.kind === 'plan' && posted ? true : undefined;
        },
        120_000,
        100,
      );
      await until(
        'no pending activity',
        async () => ((await handle.describe()).raw.pendingActivities?.length ? undefined : true),
        10_000,
        100,
      );

      first.kill('SIGKILL');
      await new Promise((resolve) => first!.once('exit', resolve));
      first = undefined;
      await sleep(1000);
      second = startWorkerProcess(workerEnv);
      await handle.executeUpdate(answerUpdate, { args: [{ author: 'ann', text: '/approve' }] });
      const result = await handle.result();
      assert.equal(result.outcome, 'success', result.reason);
      const byRule = model.stats().byRule;
      assert.equal(byRule['plan'], 1, 'the plan was not made again after the restart');
      assert.equal(byRule['reproduce'], 1, 'the run went on past the plan');
    } finally {
      first?.kill('SIGKILL');
      second?.kill('SIGKILL');
      await model.close();
    }
  },
);
