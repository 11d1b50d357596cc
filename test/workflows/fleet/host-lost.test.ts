/**
 * A fleet that survives losing a machine: two worker processes with their own host ids
 * and state dirs; a run on a `file://` remote starts on the first, whose process is
 * SIGKILLed for good in the middle of a step. The run moves to the second worker at the
 * last completed step's checkpoint (pushed to the remote's refs/issue-agent/…), keeps
 * its StepContext, and is delivered exactly once: one branch pushed, the checkpoint refs
 * gone afterwards.
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
import { waitFor } from '../../helpers/worker-process.js';
import { createRemoteSampleRepo, killHost, remoteRefs, startHost, type FleetHost } from './remote-fixture.js';

after(teardownEnv);

test(
  'a run on a file:// remote whose worker is killed for good is finished by another worker, delivered once',
  { timeout: 300_000 },
  async () => {
    const env = await testEnv();
    const session = loadSessionScript(join(DEMO_DIR, 'session.json'));
    // Slow the work step's second turn so the kill lands while it is in flight, after
    // steps 1 and 2 recorded (and pushed) their checkpoints.
    const rules = session.rules.map((r) =>
      r.id === 'work-test-commit' ? { ...r, respond: { ...r.respond, delayMs: 4000 } } : r,
    );
    const model = await createModelServer({ session: { ...session, rules } });
    const { url, barePath, issue } = await createRemoteSampleRepo();
    const taskQueue = `fleet-${Date.now()}`;
    const workerEnv = {
      TEMPORAL_ADDRESS: serverAddress(env),
      TEMPORAL_TASK_QUEUE: taskQueue,
      ANTHROPIC_BASE_URL: model.url,
      LOG_LEVEL: 'ERROR',
    };
    const hosts: FleetHost[] = [];
    try {
      const first = await startHost('host-a', workerEnv);
      hosts.push(first);
      const handle = await env.client.workflow.start(runAgentWorkflow, {
        taskQueue,
        workflowId: `fleet-${Date.now()}/default/issue-${issue}`,
        args: [
          {
            issue,
            agentDir: PROJECT_ROOT,
            repoPath: url,
            issueSource: 'local',
            delivery: 'branch',
            artifactsDir: 'artifacts/fleet-test',
            tuning: { heartbeatTimeoutMs: 3000, hostLostAfterMs: 4000 },
          },
        ],
      });
      await waitFor(
        () => (model.stats().byRule['work-test-commit'] ?? 0) >= 1,
        150_000,
        'the work step to reach its second turn on host-a',
      );
      const pushedBeforeKill = await remoteRefs(barePath, 'refs/issue-agent/');
      assert.ok(pushedBeforeKill.size >= 1, 'the completed steps pushed their checkpoints to the remote');
      hosts.push(await startHost('host-b', workerEnv));
      await killHost(first);

      const result = await handle.result();
      assert.equal(result.outcome, 'success', result.reason);
      assert.ok(
        (result.warnings ?? []).some((w) => /moved to .*host-b/.test(w)),
        `the run says it moved: ${JSON.stringify(result.warnings)}`,
      );
      assert.ok(result.worktreePath?.startsWith(hosts[1]!.stateDir), `worked on host-b: ${result.worktreePath}`);
      const byRule = model.stats().byRule;
      assert.equal(byRule['understand-answer'], 1, 'completed step 1 was not asked again');
      assert.equal(byRule['reproduce-answer'], 1, 'completed step 2 was not asked again');
      assert.equal(
        result.handoff['continuation.reproduce']?.['command'],
        'node --test test/sum.test.js',
        'StepContext survived the move',
      );

      // Delivered exactly once: one branch on the remote, holding the fix; no checkpoint ref left.
      const heads = await remoteRefs(barePath, 'refs/heads/');
      assert.deepEqual([...heads.keys()].sort(), ['refs/heads/agent/issue-1', 'refs/heads/main'].sort());
      const push = result.boundary?.effects.find((e) => e.name === 'push');
      assert.equal(push?.status, 'done', JSON.stringify(result.boundary));
      const fixed = await git(barePath, ['show', 'agent/issue-1:src/sum.js']);
      assert.equal(fixed.exitCode, 0);
      assert.match(fixed.stdout, /a \+ b/);
      assert.equal((await remoteRefs(barePath, 'refs/issue-agent/')).size, 0, 'checkpoint refs deleted after delivery');
    } finally {
      for (const host of hosts) await killHost(host);
      await model.close();
    }
  },
);
