/**
 * A worker process SIGKILLed in the middle of a pipeline cycle (the detailer's model call
 * in flight), then a new worker started: the pipeline resumes in the same cycle and
 * finishes, with no effect done twice — one child execution per cycle, each completed;
 * one handoff comment per cycle; the earlier agent never asked again.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createModelServer } from '../../../src/dev/model-server/model-server.js';
import { runPipelineWorkflow } from '../../../src/workflows/pipeline/run-pipeline.js';
import { pipelineProgressQuery } from '../../../src/workflows/pipeline/pipeline-messages.js';
import { teardownEnv, testEnv } from '../../helpers/temporal-env.js';
import { replaceableWorker, waitFor } from '../../helpers/worker-process.js';
import { agentRule, writePipelineAgents } from './pipeline-agents.js';
import { pipelineDefinition, transformer } from './pipeline-definitions.js';
import { childrenOf, ISSUE, pipelineInput, pipelineRepo, readIssueFile } from './pipeline-scenario.js';

after(teardownEnv);

test(
  'SIGKILL of the worker mid-cycle: a new worker resumes the same cycle, nothing done twice',
  { timeout: 300_000 },
  async () => {
    const env = await testEnv();
    const dirs = await writePipelineAgents(['considerer', 'detailer', 'implementer']);
    const definition = pipelineDefinition({
      agents: [
        transformer('considerer', 'done', {
          agentDir: dirs['considerer']!,
          fallbackPhases: { 'handoff-detail': 'detail' },
        }),
        transformer('detailer', 'implement', {
          agentDir: dirs['detailer']!,
          fallbackPhases: { 'handoff-impl': 'implement' },
        }),
        transformer('implementer', 'done', { agentDir: dirs['implementer']!, closeOnComplete: true }),
      ],
      commentTemplates: {
        considererHandoffDetail: 'Considered: {summary}',
        detailerHandoffImpl: 'Plan: {plan}',
        implementerSuccess: 'Done: {summary}',
      },
      rules: { maxCycles: 5, cycleDelayMs: 0, maxConsecutivePhases: 0 },
    });
    const repoPath = await pipelineRepo(['kind:consider']);
    const model = await createModelServer({
      session: {
        name: 'pipeline-crash',
        rules: [
          agentRule('considerer', ISSUE, { verdict: 'handoff-detail', summary: 'worth it' }),
          // Slow: the kill lands while the detailer's step is in flight.
          agentRule('detailer', ISSUE, { verdict: 'handoff-impl', summary: 'planned', plan: 'sub()', delayMs: 3000 }),
          agentRule('implementer', ISSUE, { summary: 'sub() added' }),
        ],
      },
    });
    const taskQueue = `pipeline-crash-${Date.now()}`;
    const worker = replaceableWorker(env, taskQueue, model.url);
    try {
      const workflowId = `crash-repo-0000/pipeline-default/issue-${ISSUE}`;
      const handle = await env.client.workflow.start(runPipelineWorkflow, {
        taskQueue,
        workflowId,
        args: [
          await pipelineInput(repoPath, definition, {
            repoId: 'crash-repo-0000',
            // Above the activities' 5 s heartbeat timer: the killed step is retried ~10 s later.
            tuning: { heartbeatTimeoutMs: 10_000 },
          }),
        ],
      });
      await waitFor(() => (model.stats().byRule['detailer-handoff-impl'] ?? 0) >= 1, 180_000, "the detailer's step");
      const before = await handle.query(pipelineProgressQuery);
      assert.equal(before.cycle, 2, `mid cycle 2 at the kill: ${JSON.stringify(before)}`);
      assert.equal(before.agent, 'detailer');
      await worker.kill();
      const atKill = await readIssueFile(repoPath);
      assert.deepEqual(atKill.labels, ['kind:detail'], 'cycle 1 was applied before the kill');
      await sleep(500);
      worker.start();

      const result = await handle.result();
      assert.equal(result.status, 'completed', result.reason);
      assert.deepEqual(
        result.history.map((t) => `${t.cycle}:${t.from}→${t.to}`),
        ['1:consider→detail', '2:detail→implement', '3:implement→done'],
      );
      const issue = await readIssueFile(repoPath);
      assert.equal(issue.state, 'closed');
      assert.deepEqual(issue.labels, ['done']);
      const keys = issue.commentKeys.filter((k) => k.startsWith('pipeline:'));
      assert.deepEqual(
        keys.map((k) => k.replace(/^.*:/, '')),
        ['cycle-1', 'cycle-2', 'cycle-3'],
        'one handoff comment per cycle',
      );
      assert.equal(issue.text.match(/Plan: sub\(\)/g)?.length, 1);
      // One child execution per cycle, none restarted: the kill did not start a run again.
      const children = await childrenOf(env.client, workflowId);
      assert.deepEqual(
        children.map((c) => `${c.workflowId}:${c.status}`),
        ['considerer', 'detailer', 'implementer'].map((a) => `crash-repo-0000/${a}/issue-${ISSUE}:COMPLETED`),
      );
      const byRule = model.stats().byRule;
      assert.equal(byRule['considerer-handoff-detail'], 1, 'the finished cycle is not redone');
      assert.ok((byRule['detailer-handoff-impl'] ?? 0) <= 2, 'the interrupted step is asked at most once more');
      assert.equal(byRule['implementer-none'], 1);
    } finally {
      worker.close();
      await model.close();
    }
  },
);
