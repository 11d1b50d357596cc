/**
 * Operating a pipeline: `pause` holds it between cycles (the query says so, the next
 * agent is not dispatched) until `resume`; `cancel` forwards to the child run in flight
 * and ends the pipeline cancelled with no label change for that cycle.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cancelPipelineSignal,
  pausePipelineSignal,
  pipelineProgressQuery,
  resumePipelineSignal,
} from '../../../src/workflows/pipeline/pipeline-messages.js';
import { untilParked } from '../../helpers/parked.js';
import { teardownEnv } from '../../helpers/temporal-env.js';
import { waitFor } from '../../helpers/worker-process.js';
import { until } from '../../helpers/until.js';
import { agentRule, writePipelineAgents } from './pipeline-agents.js';
import { pipelineDefinition, transformer } from './pipeline-definitions.js';
import { ISSUE, pipelineRepo, readIssueFile, runPipelineScenario } from './pipeline-scenario.js';

after(teardownEnv);

async function twoStepDefinition() {
  const dirs = await writePipelineAgents(['considerer', 'implementer']);
  return pipelineDefinition({
    agents: [
      transformer('considerer', 'implement', { agentDir: dirs['considerer']! }),
      transformer('implementer', 'done', { agentDir: dirs['implementer']!, closeOnComplete: true }),
    ],
    commentTemplates: {},
  });
}

test('pause holds the pipeline between cycles until resume', { timeout: 180_000 }, async () => {
  const definition = await twoStepDefinition();
  const repoPath = await pipelineRepo(['kind:consider']);
  const rules = [
    agentRule('considerer', ISSUE, { summary: 'considered', delayMs: 1500 }),
    agentRule('implementer', ISSUE, { summary: 'implemented' }),
  ];
  const { result } = await runPipelineScenario(repoPath, definition, rules, {
    during: async (handle, model) => {
      await waitFor(() => (model.stats().byRule['considerer-none'] ?? 0) >= 1, 60_000, 'the first agent');
      await handle.signal(pausePipelineSignal, { reason: 'look first' });
      // The first cycle finishes; the pipeline then waits instead of dispatching the implementer.
      const p = await until(
        "the pipeline's first cycle to finish",
        async () => {
          const q = await handle.query(pipelineProgressQuery);
          return q.history.length >= 1 ? q : undefined;
        },
        20_000,
        200,
      );
      assert.equal(p.paused, true);
      assert.equal(p.history.length, 1);
      await untilParked(handle, 'the paused pipeline');
      assert.equal(model.stats().byRule['implementer-none'] ?? 0, 0, 'nothing dispatched while paused');
      assert.deepEqual((await readIssueFile(repoPath)).labels, ['kind:impl']);
      await handle.signal(resumePipelineSignal);
    },
  });
  assert.equal(result.status, 'completed', result.reason);
  assert.equal(result.cycleCount, 2);
});

test(
  'cancel stops the child run in flight and ends the pipeline cancelled, labels untouched',
  { timeout: 180_000 },
  async () => {
    const definition = await twoStepDefinition();
    const repoPath = await pipelineRepo(['kind:consider']);
    const rules = [agentRule('considerer', ISSUE, { summary: 'considered', delayMs: 20_000 })];
    const { result } = await runPipelineScenario(repoPath, definition, rules, {
      during: async (handle, model) => {
        await waitFor(() => (model.stats().byRule['considerer-none'] ?? 0) >= 1, 60_000, 'the first agent');
        await handle.signal(cancelPipelineSignal, { reason: 'wrong issue' });
      },
    });
    assert.equal(result.status, 'cancelled');
    assert.match(result.reason, /wrong issue/);
    assert.equal(result.cycleCount, 0);
    const issue = await readIssueFile(repoPath);
    assert.deepEqual(issue.labels, ['kind:consider']);
    assert.equal(issue.state, 'open');
  },
);
