/**
 * The host-lost scenario, shared by its test and by test/record-histories.ts (the
 * history of a run that moved host): two worker processes with their own host ids and
 * state dirs; a run on a `file://` remote starts on host-a, whose process is SIGKILLed
 * for good in the middle of the work step; host-b is started just before.
 */
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createModelServer, type ModelServer } from '../../../src/dev/model-server/model-server.js';
import { loadSessionScript } from '../../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import { DEMO_DIR } from '../../../src/dev/sample-repo.js';
import type { RunResult } from '../../../src/contracts/run.js';
import { runAgentWorkflow } from '../../../src/workflows/run-agent.js';
import { serverAddress } from '../../helpers/temporal-env.js';
import { waitFor } from '../../helpers/worker-process.js';
import { createRemoteSampleRepo, killHost, remoteRefs, startHost, type FleetHost } from './remote-fixture.js';
import { readRunResult } from '../../../src/host/run-result.js';

export interface HostLostOutcome {
  readonly workflowId: string;
  readonly result: RunResult;
  readonly barePath: string;
  readonly hosts: readonly FleetHost[];
  /** Checkpoint refs on the remote when host-a was killed. */
  readonly pushedBeforeKill: ReadonlyMap<string, string>;
  readonly byRule: Readonly<Record<string, number>>;
}

export async function runHostLostScenario(env: TestWorkflowEnvironment): Promise<HostLostOutcome> {
  const session = loadSessionScript(join(DEMO_DIR, 'session.json'));
  // Slow the work step's second turn so the kill lands while it is in flight, after
  // steps 1 and 2 recorded (and pushed) their checkpoints.
  const rules = session.rules.map((r) =>
    r.id === 'work-test-commit' ? { ...r, respond: { ...r.respond, delayMs: 4000 } } : r,
  );
  const model: ModelServer = await createModelServer({ session: { ...session, rules } });
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
    const workflowId = `fleet-${Date.now()}/default/issue-${issue}`;
    const handle = await env.client.workflow.start(runAgentWorkflow, {
      taskQueue,
      workflowId,
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
    hosts.push(await startHost('host-b', workerEnv));
    await killHost(first);
    const result = await readRunResult(handle);
    return { workflowId, result, barePath, hosts, pushedBeforeKill, byRule: model.stats().byRule };
  } finally {
    for (const host of hosts) await killHost(host);
    await model.close();
  }
}
