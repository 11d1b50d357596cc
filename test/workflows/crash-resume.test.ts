/**
 * A worker process killed with SIGKILL in the middle of a step: a new worker picks the
 * run up, the step resumes at its last completed model turn, StepContext is intact,
 * and no completed step's model call is repeated (counted at the offline server).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadSessionScript } from '../../src/dev/model-server/session-script.js';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { waitFor } from '../helpers/worker-process.js';
import { restartableRun } from './restartable-run.js';
import { readRunResult } from '../../src/host/run-result.js';

after(teardownEnv);

test(
  'SIGKILL mid-step: a new worker completes the run without re-asking completed turns',
  { timeout: 240_000 },
  async () => {
    const session = loadSessionScript(join(DEMO_DIR, 'session.json'));
    // Slow down turn 1 of the work step so the kill lands while it is in flight.
    const rules = session.rules.map((r) =>
      r.id === 'work-test-commit' ? { ...r, respond: { ...r.respond, delayMs: 2500 } } : r,
    );
    const run = await restartableRun(
      'crash',
      { ...session, rules },
      {
        tuning: { heartbeatTimeoutMs: 3000 },
      },
    );
    const { handle, model } = run;
    try {
      await waitFor(
        () => (model.stats().byRule['work-test-commit'] ?? 0) >= 1,
        120_000,
        'the work step to reach turn 1',
      );
      await run.killWorker();
      run.startWorker();
      const result = await readRunResult(handle);
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
      await run.close();
    }
  },
);
