/**
 * Continue-as-new (issue 29): with a low history bound the demo run continues as new
 * several times and still follows the whole playbook under one Workflow ID: StepContext,
 * step records, usage and the worktree are carried; no activity of the start (definition,
 * worktree, environment) runs again; queries answer on the continued run; the result read
 * by Workflow ID alone is the chain's.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { DEMO_DIR } from '../../../src/dev/sample-repo.js';
import { readRunResult } from '../../../src/host/run-result.js';
import { progressQuery } from '../../../src/workflows/run/messages.js';
import { runScenario } from '../../helpers/run-scenario.js';
import { teardownEnv, testEnv } from '../../helpers/temporal-env.js';
import { until } from '../../helpers/until.js';
import { DEMO_PLAYBOOK } from '../demo-playbook.js';

after(teardownEnv);

test('a run past its history bound continues as new and completes as one run under its Workflow ID', async () => {
  let firstRunId = '';
  let continuedProgress: { iteration: number; workflowId: string } | undefined;
  const { result, workflowId, handle } = await runScenario({
    session: join(DEMO_DIR, 'session.json'),
    input: { tuning: { historyEventBound: 60 } },
    during: async (h) => {
      firstRunId = (await h.describe()).runId;
      // The handle follows the chain: a query after the first continuation answers from the new run.
      // Ends quietly after about 40 s: the assertion on continuedProgress below says what is missing.
      continuedProgress = await until(
        'the progress query to answer on a continued run',
        async () => {
          const d = await h.describe().catch(() => undefined);
          if (d === undefined || d.runId === firstRunId || d.status.name !== 'RUNNING') return undefined;
          const p = await h.query(progressQuery).catch(() => undefined);
          return p === undefined ? undefined : { iteration: p.iteration, workflowId: p.workflowId };
        },
        40_000,
        50,
      ).catch(() => undefined);
    },
  });
  assert.equal(result.outcome, 'success', result.reason);
  assert.deepEqual(
    result.steps.map((s) => `${s.stepId}:${s.intent}`),
    DEMO_PLAYBOOK,
    'the step records of every run of the chain',
  );
  assert.equal(result.boundary?.status, 'success');
  assert.equal(result.handoff['initial.understand']?.['test_command'], 'npm test --silent', 'StepContext carried');

  const env = await testEnv();
  const runs: Array<{ runId: string; status: string; start: number }> = [];
  for await (const e of env.client.workflow.list({ query: `WorkflowId="${workflowId}"` }))
    runs.push({ runId: e.runId, status: e.status.name, start: e.startTime.getTime() });
  runs.sort((a, b) => a.start - b.start);
  assert.ok(runs.length >= 2, `continued as new at least once: ${JSON.stringify(runs)}`);
  assert.equal(runs[0]?.runId, firstRunId);
  assert.ok(
    runs.slice(0, -1).every((r) => r.status === 'CONTINUED_AS_NEW'),
    JSON.stringify(runs),
  );
  assert.ok(continuedProgress !== undefined, 'the progress query answered on a continued run');
  assert.equal(continuedProgress.workflowId, workflowId);
  assert.ok(continuedProgress.iteration > 0, 'the continued run kept the iteration count');

  // The start's activities ran once, in the first run only; the first run carries the patch marker.
  // Local ones (loadDefinition) are markers naming their type.
  const activitiesOf = async (runId: string): Promise<string[]> => {
    const history = await env.client.workflow.getHandle(workflowId, runId).fetchHistory();
    return (history.events ?? []).flatMap((e) => {
      const name = e.activityTaskScheduledEventAttributes?.activityType?.name;
      if (name) return [name];
      const local = e.markerRecordedEventAttributes?.details?.['data']?.payloads?.[0]?.data;
      if (e.markerRecordedEventAttributes?.markerName !== 'core_local_activity' || !local) return [];
      return [(JSON.parse(Buffer.from(local).toString('utf8')) as { activity_type: string }).activity_type];
    });
  };
  const first = await activitiesOf(runs[0]!.runId);
  assert.ok(first.includes('prepareWorkspace') && first.includes('loadDefinition'));
  for (const run of runs.slice(1)) {
    const names = await activitiesOf(run.runId);
    for (const once of ['loadDefinition', 'prepareWorkspace', 'prepareEnvironment'])
      assert.equal(names.includes(once), false, `${once} again in ${run.runId}`);
  }
  // Read by Workflow ID alone (as `status` and `--follow` do): the chain's result.
  const byId = await readRunResult(env.client.workflow.getHandle(workflowId));
  assert.equal(byId.outcome, 'success');
  assert.deepEqual(byId.steps, result.steps);
  void handle;
});
