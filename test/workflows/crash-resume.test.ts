/**
 * A worker process killed with SIGKILL in the middle of a step: a new worker picks the
 * run up, the step resumes at its last completed model turn, StepContext is intact,
 * and no completed step's model call is repeated (counted at the offline server).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModelServer } from '../../src/dev/model-server/model-server.js';
import { loadSessionScript } from '../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { createSampleRepo, DEMO_DIR } from '../../src/dev/sample-repo.js';
import { runAgentWorkflow } from '../../src/workflows/run-agent.js';
import { serverAddress, teardownEnv, testEnv } from '../helpers/temporal-env.js';
import { startWorkerProcess, waitFor } from '../helpers/worker-process.js';

after(teardownEnv);

test(
  'SIGKILL mid-step: a new worker completes the run without re-asking completed turns',
  { timeout: 240_000 },
  async () => {
    const env = await testEnv();
    const session = loadSessionScript(join(DEMO_DIR, 'session.json'));
    // Slow down turn 1 of the work step so the kill lands while it is in flight.
    const rules = session.rules.map((r) =>
      r.id === 'work-test-commit' ? { ...r, respond: { ...r.respond, delayMs: 2500 } } : r,
    );
    const model = await createModelServer({ session: { ...session, rules } });
    const { repoPath, issue } = await createSampleRepo();
    const taskQueue = `crash-${Date.now()}`;
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
        workflowId: `crash-${Date.now()}`,
        args: [
          {
            issue,
            agentDir: PROJECT_ROOT,
            repoPath,
            issueSource: 'local',
            delivery: 'merge',
            artifactsDir: await mkdtemp(join(tmpdir(), 'artifacts-')),
            tuning: { heartbeatTimeoutMs: 3000 },
          },
        ],
      });
      await waitFor(
        () => (model.stats().byRule['work-test-commit'] ?? 0) >= 1,
        120_000,
        'the work step to reach turn 1',
      );
      first.kill('SIGKILL');
      await new Promise((resolve) => first!.once('exit', resolve));
      first = undefined;
      second = startWorkerProcess(workerEnv);
      const result = await handle.result();
      assert.equal(result.outcome, 'success', result.reason);
      const byRule = model.stats().byRule;
      assert.equal(byRule['understand-explore'], 1, 'completed step 1 was not re-queried');
      assert.equal(byRule['understand-answer'], 1, 'completed step 1 was not re-queried');
      assert.equal(byRule['work-edit'], 1, 'the completed turn 0 of the interrupted step was not re-queried');
      assert.ok((byRule['work-test-commit'] ?? 0) >= 2, 'the interrupted turn was asked again');
      assert.equal(
        result.handoff['continuation.reproduce']?.['command'],
        'node --test test/sum.test.js',
        'StepContext survived the crash',
      );
      assert.deepEqual(
        result.steps.map((s) => s.stepId),
        [
          'initial.understand',
          'continuation.reproduce',
          'continuation.implement',
          'verification.review',
          'continuation.implement',
          'verification.review',
          'closure.issue',
        ],
      );
    } finally {
      first?.kill('SIGKILL');
      second?.kill('SIGKILL');
      await model.close();
    }
  },
);
