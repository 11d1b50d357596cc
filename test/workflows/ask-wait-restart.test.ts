/**
 * A question's wait is durable (issue 40): while the run waits for an answer no activity
 * is pending (it holds no worker slot); its worker is SIGKILLed during the wait, a new
 * worker takes the answer, and the asking step runs again with the answer quoted, without
 * asking again.
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
import { startWorkerProcess, waitFor } from '../helpers/worker-process.js';
import { ANSWER, askingSession } from './asking-session.js';

after(teardownEnv);

test(
  'a worker killed while the run waits for an answer: a new worker takes the answer',
  { timeout: 240_000 },
  async () => {
    const env = await testEnv();
    const model = await createModelServer({ session: askingSession() });
    const { repoPath, issue } = await createSampleRepo();
    const taskQueue = `ask-restart-${Date.now()}`;
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
        workflowId: `ask-restart-${Date.now()}`,
        args: [
          {
            issue,
            agentDir: PROJECT_ROOT,
            repoPath,
            issueSource: 'local',
            delivery: 'merge',
            artifactsDir: await mkdtemp(join(tmpdir(), 'artifacts-')),
          },
        ],
      });
      await waitFor(() => (model.stats().byRule['ask'] ?? 0) >= 1, 120_000, 'the model to ask');
      let waiting = false;
      for (let i = 0; i < 300 && !waiting; i++) {
        const p = await handle.query(progressQuery).catch(() => undefined);
        const text = await readFile(localIssuePath(repoPath, issue), 'utf8');
        waiting = p?.phase === 'waiting-for-answer' && text.includes('agent:waiting');
        if (!waiting) await sleep(100);
      }
      assert.ok(waiting, 'the run waits for an answer, its question posted');
      const pending = (await handle.describe()).raw.pendingActivities ?? [];
      assert.deepEqual(
        pending.map((a) => a.activityType?.name),
        [],
        'no activity runs while the run waits',
      );

      first.kill('SIGKILL');
      await new Promise((resolve) => first!.once('exit', resolve));
      first = undefined;
      await sleep(1000);
      second = startWorkerProcess(workerEnv);
      await handle.executeUpdate(answerUpdate, { args: [{ author: 'ann', text: ANSWER }] });
      const result = await handle.result();
      assert.equal(result.outcome, 'success', result.reason);
      const byRule = model.stats().byRule;
      assert.equal(byRule['ask'], 1, 'the question was not asked again after the restart');
      assert.equal(byRule['understand-with-answer'], 1, 'the answer reached the next prompt');
    } finally {
      first?.kill('SIGKILL');
      second?.kill('SIGKILL');
      await model.close();
    }
  },
);
