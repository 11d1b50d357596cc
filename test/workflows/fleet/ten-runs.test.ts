/**
 * Ten runs on ten `file://` remotes served by two worker processes (two hosts, two state
 * dirs); one host is SIGKILLed for good while runs are in flight. Every run finishes
 * (those of the lost host on the other one) and is delivered exactly once: each remote
 * has exactly one issue branch, holding the fix, and no checkpoint ref left.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createModelServer } from '../../../src/dev/model-server/model-server.js';
import { loadSessionScript } from '../../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import { DEMO_DIR } from '../../../src/dev/sample-repo.js';
import { git } from '../../../src/activities/workspace/git/git.js';
import { runAgentWorkflow } from '../../../src/workflows/run-agent.js';
import { serverAddress, teardownEnv, testEnv } from '../../helpers/temporal-env.js';
import { until } from '../../helpers/until.js';
import { waitFor } from '../../helpers/worker-process.js';
import { createRemoteSampleRepo, killHost, remoteRefs, startHost, type FleetHost } from './remote-fixture.js';
import { readRunResult } from '../../../src/host/run-result.js';

after(teardownEnv);

const RUNS = 10;

test(
  `${RUNS} runs on file:// remotes across two hosts, one host killed for good: each delivered once`,
  { timeout: 900_000 },
  async () => {
    const env = await testEnv();
    const model = await createModelServer({ session: loadSessionScript(join(DEMO_DIR, 'session.json')) });
    const taskQueue = `fleet10-${Date.now()}`;
    const workerEnv = {
      TEMPORAL_ADDRESS: serverAddress(env),
      TEMPORAL_TASK_QUEUE: taskQueue,
      ANTHROPIC_BASE_URL: model.url,
      LOG_LEVEL: 'ERROR',
    };
    const hosts: FleetHost[] = [];
    try {
      hosts.push(await startHost('host-a', workerEnv), await startHost('host-b', workerEnv));
      // Both hosts poll the shared queue before the runs start, so the runs spread over both.
      const pollers = async (): Promise<number> =>
        (
          await env.client.workflowService.describeTaskQueue({
            namespace: 'default',
            taskQueue: { name: taskQueue },
            taskQueueType: 2, // activities: prepareWorkspace, which picks the run's host
          })
        ).pollers?.length ?? 0;
      await until('the two workers to both poll', async () => ((await pollers()) >= 2 ? true : undefined), 120_000);
      const remotes = await Promise.all(Array.from({ length: RUNS }, () => createRemoteSampleRepo()));
      const handles = await Promise.all(
        remotes.map(({ url, issue }, i) =>
          env.client.workflow.start(runAgentWorkflow, {
            taskQueue,
            workflowId: `fleet10-${Date.now()}-${i}/default/issue-${issue}`,
            args: [
              {
                issue,
                agentDir: PROJECT_ROOT,
                repoPath: url,
                issueSource: 'local',
                delivery: 'branch',
                artifactsDir: `artifacts/fleet10-${i}`,
                tuning: { heartbeatTimeoutMs: 3000, hostLostAfterMs: 4000 },
              },
            ],
          }),
        ),
      );
      // Kill host-a once runs are well under way (some past their first steps).
      await waitFor(() => (model.stats().byRule['work-edit'] ?? 0) >= 3, 400_000, 'three runs to reach the work step');
      await killHost(hosts[0]!);

      const results = await Promise.all(handles.map((h) => readRunResult(h)));
      for (const [i, result] of results.entries())
        assert.equal(result.outcome, 'success', `run ${i}: ${result.reason}`);
      const moved = results.filter((r) => (r.warnings ?? []).some((w) => /moved to .*host-b/.test(w)));
      assert.ok(moved.length >= 1, 'at least one run moved from the lost host');
      for (const result of results)
        assert.ok(
          result.worktreePath?.startsWith(hosts[1]!.stateDir) || result.worktreePath?.startsWith(hosts[0]!.stateDir),
        );
      for (const [i, { barePath }] of remotes.entries()) {
        const heads = [...(await remoteRefs(barePath, 'refs/heads/')).keys()].sort();
        assert.deepEqual(heads, ['refs/heads/agent/issue-1', 'refs/heads/main'], `remote ${i}`);
        const fixed = await git(barePath, ['show', 'agent/issue-1:src/sum.js']);
        assert.match(fixed.stdout, /a \+ b/, `remote ${i} holds the fix`);
        assert.equal((await remoteRefs(barePath, 'refs/issue-agent/')).size, 0, `remote ${i}: checkpoint refs deleted`);
      }
      process.stdout.write(`# ${moved.length} of ${RUNS} runs moved from host-a to host-b, the others ran on host-b\n`);
    } finally {
      for (const host of hosts) await killHost(host);
      await model.close();
    }
  },
);
