/**
 * The short chaos run: three demo issues while workers are SIGKILLed at random, the
 * SQLite dev server is stopped and restarted, and the model server injects 429s,
 * 529s, 500s, resets, slow and malformed answers. Every run ends with a stated
 * reason, boundary effects happen once, StepContext survives.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runChaos, SHORT_CHAOS } from '../../scripts/chaos/run-chaos.js';

test(
  'chaos: worker kills, a dev-server restart and model faults lose nothing and duplicate nothing',
  { timeout: 260_000 },
  async (t) => {
    const seed = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const report = await runChaos({ ...SHORT_CHAOS, seed, log: (line) => t.diagnostic(line) });
    t.diagnostic(report.summary);
    for (const run of report.runs) t.diagnostic(`${run.workflowId}: ${run.outcome} ${run.code ?? ''} ${run.reason}`);
    assert.deepEqual(report.problems, [], `chaos seed ${seed}: ${report.summary}`);
    assert.equal(report.runs.length, SHORT_CHAOS.runs);
    for (const run of report.runs) {
      assert.ok(run.outcome === 'success' || run.outcome === 'failed', `${run.workflowId} ended ${run.outcome}`);
      assert.ok(run.reason.length > 0, `${run.workflowId} states a reason`);
      assert.ok(run.mergeCommits <= 1 && run.comments <= 1, `${run.workflowId}: boundary effects at most once`);
    }
    assert.ok(report.workerKills >= 1, 'at least one worker was killed');
    assert.ok(report.serverRestarts.length >= 1, 'the dev server was restarted');
  },
);
