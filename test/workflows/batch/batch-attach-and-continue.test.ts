/**
 * Two properties of the batch that a plain run-through does not show:
 * - an issue whose run `<agent>-issue-<n>` is already live (started by start-run, say)
 *   is attached to, not duplicated: the batch waits for that run and reports it;
 * - with a tiny history threshold the batch drains and continues as new, carrying the
 *   queue and the result table, and still ends with one row per issue;
 * - a run that succeeds but cannot be delivered (the boundary hook leaves the merge
 *   pending) is `partial` and labelled `blocked`, a closed issue is skipped, a missing one
 *   fails — and none of that stops the other issues.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDefaultDeps } from '../../../src/activities/deps.js';
import { loadAgentDefinitionOrThrow } from '../../../src/definition/load/load-agent-definition.js';
import { createModelServer } from '../../../src/dev/model-server/model-server.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import { DEMO_DIR } from '../../../src/dev/sample-repo.js';
import { writeLocalIssue } from '../../../src/activities/issues/local-issue-store.js';
import { createRunWorker } from '../../../src/worker/create-run-worker.js';
import type { BatchInput } from '../../../src/contracts/batch.js';
import type { RunInput } from '../../../src/contracts/run.js';
import { runAgentWorkflow } from '../../../src/workflows/run-agent.js';
import { runBatchWorkflow } from '../../../src/workflows/batch/run-batch.js';
import { batchProgressQuery } from '../../../src/workflows/batch/batch-messages.js';
import { teardownEnv, testEnv, workflowBundle } from '../../helpers/temporal-env.js';
import { until } from '../../helpers/until.js';
import { listChildren, readIssue, sampleRepoWithIssues } from './batch-fixture.js';

after(teardownEnv);

test(
  'attaches to a live run of an issue and continues as new on a small history threshold',
  { timeout: 600_000 },
  async () => {
    const env = await testEnv();
    const definition = await loadAgentDefinitionOrThrow(PROJECT_ROOT);
    const { repoPath, issues } = await sampleRepoWithIssues(5);
    const model = await createModelServer({ session: join(DEMO_DIR, 'session.json') });
    const deps = createDefaultDeps({ PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_BASE_URL: model.url });
    const bundle = await workflowBundle();
    const taskQueue = `batch-can-${Date.now()}`;
    const parkedQueue = `${taskQueue}-parked`;
    const artifactsDir = await mkdtemp(join(tmpdir(), 'batch-can-artifacts-'));
    const worker = (queue: string) =>
      createRunWorker({
        address: '',
        connection: env.nativeConnection,
        namespace: env.namespace ?? 'default',
        taskQueue: queue,
        deps,
        workflowBundle: bundle,
        identity: queue,
      });
    try {
      // Issue 3's run is already live (as if from start-run), on a queue nobody serves yet.
      const liveId = `${definition.name}-issue-3`;
      const runInput: RunInput = { issue: 3, agentDir: PROJECT_ROOT, repoPath, issueSource: 'local', artifactsDir };
      await env.client.workflow.start(runAgentWorkflow, {
        taskQueue: parkedQueue,
        workflowId: liveId,
        args: [runInput],
      });

      const input: BatchInput = {
        agentName: definition.name,
        agentDir: PROJECT_ROOT,
        repoPath,
        issueSource: 'local',
        delivery: 'merge',
        artifactsDir,
        selection: { kind: 'label', label: 'ready' },
        concurrency: 2,
        historyThreshold: 40,
      };
      const batchId = `${definition.name}-batch-ready`;
      const handle = await env.client.workflow.start(runBatchWorkflow, {
        taskQueue,
        workflowId: batchId,
        args: [input],
      });
      const { worker: main } = await worker(taskQueue);
      const result = await main.runUntil(async () => {
        // Once the batch waits on issue 3, serve the parked run.
        await until(
          'the batch to wait on issue 3',
          async () => {
            const p = await handle.query(batchProgressQuery).catch(() => undefined);
            return p?.issues.some((i) => i.issue === 3 && i.state === 'running') ? true : undefined;
          },
          600_000,
          100,
        );
        const { worker: parked } = await worker(parkedQueue);
        return parked.runUntil(handle.result());
      });

      assert.deepEqual(
        result.results.map((r) => `${r.issue}:${r.outcome}`),
        issues.map((n) => `${n}:succeeded`),
        JSON.stringify(result.results, null, 2),
      );
      const row3 = result.results.find((r) => r.issue === 3)!;
      assert.equal(row3.attached, true, 'issue 3 was attached to');
      assert.ok(row3.steps === 7 && row3.tokens > 0, 'the attached run’s result is in the table');
      assert.ok(result.results.filter((r) => r.issue !== 3).every((r) => !r.attached));

      const children = await listChildren(env.client);
      assert.deepEqual(
        children.map((c) => c.workflowId).sort(),
        issues.map((n) => `${definition.name}-issue-${n}`).sort(),
        'one execution per issue, none duplicated',
      );
      assert.equal(
        children.find((c) => c.workflowId === liveId)?.parentWorkflowId,
        undefined,
        'issue 3 ran as its own (non-child) run',
      );

      assert.ok(result.generation >= 1, `continued as new (${result.generation} times)`);
      const runs: string[] = [];
      for await (const w of env.client.workflow.list({ query: `WorkflowId = '${batchId}'` })) runs.push(w.status.name);
      assert.equal(runs.filter((s) => s === 'CONTINUED_AS_NEW').length, result.generation);
      assert.equal(runs.filter((s) => s === 'COMPLETED').length, 1);
      assert.ok(result.maxConcurrent <= 2);
      for (const n of issues) assert.ok((await readIssue(repoPath, n)).labels.includes('done'), `issue ${n} done`);
    } finally {
      await model.close();
    }
  },
);

test(
  'an undeliverable issue is partial and blocked; the others are not stopped by it',
  { timeout: 300_000 },
  async () => {
    const env = await testEnv();
    const { repoPath, issues } = await sampleRepoWithIssues(3);
    // A local change to a tracked file in the main checkout: the boundary hook must not merge.
    await writeFile(join(repoPath, 'README.md'), 'edited by the user\n');
    await writeLocalIssue(repoPath, {
      number: 4,
      title: 'already fixed',
      body: 'closed',
      labels: ['ready'],
      state: 'closed',
    });
    const model = await createModelServer({ session: join(DEMO_DIR, 'session.json') });
    const deps = createDefaultDeps({ PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_BASE_URL: model.url });
    const taskQueue = `batch-partial-${Date.now()}`;
    try {
      const { worker } = await createRunWorker({
        address: '',
        connection: env.nativeConnection,
        namespace: env.namespace ?? 'default',
        taskQueue,
        deps,
        workflowBundle: await workflowBundle(),
      });
      const input: BatchInput = {
        agentName: 'partial-agent',
        agentDir: PROJECT_ROOT,
        repoPath,
        issueSource: 'local',
        delivery: 'merge',
        artifactsDir: await mkdtemp(join(tmpdir(), 'batch-partial-artifacts-')),
        selection: { kind: 'issues', issues: [1, 2, 3, 4, 77] },
        concurrency: 3,
      };
      const handle = await env.client.workflow.start(runBatchWorkflow, {
        taskQueue,
        workflowId: 'partial-agent-batch',
        args: [input],
      });
      const result = await worker.runUntil(handle.result());
      assert.equal(result.status, 'partial');
      assert.deepEqual(
        result.results.map((r) => `${r.issue}:${r.outcome}`),
        ['1:partial', '2:partial', '3:partial', '4:skipped', '77:failed'],
      );
      for (const n of issues) {
        const row = result.results.find((r) => r.issue === n)!;
        assert.match(row.reason, /uncommitted change/, row.reason);
        assert.ok(row.steps === 7 && row.tokens > 0, 'the run itself completed');
        const issue = await readIssue(repoPath, n);
        assert.equal(issue.state, 'open', 'not delivered, so not closed');
        assert.deepEqual([...issue.labels].sort(), ['blocked', 'bug'], `issue ${n} blocked for a human`);
      }
      assert.equal(result.results.find((r) => r.issue === 77)?.code, 'ISSUE_NOT_FOUND');
      assert.deepEqual((await readIssue(repoPath, 4)).labels, ['ready'], 'a closed issue is skipped untouched');
      assert.equal(result.counts.partial, 3);
    } finally {
      await model.close();
    }
  },
);
