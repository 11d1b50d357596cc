/**
 * A batch of 10 local issues in one sample repository, concurrency 3, on the offline
 * model server playing demo/session.json: exactly 10 child runs (one per issue, Workflow
 * ID `<agent>-issue-<n>`), never more than 3 at once (measured twice: by the batch's own
 * in-flight counter and its progress query sampled every 50 ms, and from the children's
 * start/close times as the server lists them), every issue closed and labelled `done`,
 * and the result table matching the children's own results.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { createDefaultDeps } from '../../../src/activities/deps.js';
import { loadAgentDefinitionOrThrow } from '../../../src/definition/load/load-agent-definition.js';
import { createModelServer } from '../../../src/dev/model-server/model-server.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import { DEMO_DIR } from '../../../src/dev/sample-repo.js';
import { createRunWorker } from '../../../src/worker/create-run-worker.js';
import type { BatchInput, BatchProgress } from '../../../src/contracts/batch.js';
import { totalTokens } from '../../../src/contracts/usage.js';
import type { RunResult } from '../../../src/contracts/run.js';
import { runBatchWorkflow } from '../../../src/workflows/batch/run-batch.js';
import { batchProgressQuery } from '../../../src/workflows/batch/batch-messages.js';
import { teardownEnv, testEnv, workflowBundle } from '../../helpers/temporal-env.js';
import { until } from '../../helpers/until.js';
import { listChildren, maxOverlap, readIssue, sampleRepoWithIssues } from './batch-fixture.js';

after(teardownEnv);

test('10 issues, concurrency 3: one run per issue, at most 3 at once, all done', { timeout: 600_000 }, async () => {
  const env = await testEnv();
  const definition = await loadAgentDefinitionOrThrow(PROJECT_ROOT);
  const { repoPath, issues } = await sampleRepoWithIssues(10);
  const model = await createModelServer({ session: join(DEMO_DIR, 'session.json') });
  const taskQueue = `batch-ten-${Date.now()}`;
  const deps = createDefaultDeps({ PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_BASE_URL: model.url });
  const { worker } = await createRunWorker({
    address: '',
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    deps,
    workflowBundle: await workflowBundle(),
  });
  const input: BatchInput = {
    agentName: definition.name,
    agentDir: PROJECT_ROOT,
    repoPath,
    issueSource: 'local',
    delivery: 'merge',
    artifactsDir: await mkdtemp(join(tmpdir(), 'batch-artifacts-')),
    selection: { kind: 'label', label: 'ready' },
    concurrency: 3,
  };
  const batchId = `${definition.name}-batch-ready`;
  try {
    const handle = await env.client.workflow.start(runBatchWorkflow, { taskQueue, workflowId: batchId, args: [input] });
    const samples: BatchProgress[] = [];
    let finished = false;
    // Samples the batch's progress every 50 ms until its result is in.
    const sampler = until(
      'the batch to finish',
      async () => {
        if (finished) return true;
        const p = await handle.query(batchProgressQuery).catch(() => undefined);
        if (p) samples.push(p);
        return undefined;
      },
      600_000,
      50,
    );
    const result = await worker.runUntil(handle.result().finally(() => (finished = true)));
    await sampler;

    // The table: 10 rows, all succeeded. Concurrent runs merge into the same main
    // checkout; the repository lock (src/activities/workspace/git/repo-lock.ts) serialises them.
    assert.equal(result.results.length, 10, JSON.stringify(result.results, null, 2));
    assert.deepEqual(
      result.results.map((r) => r.issue),
      issues,
    );
    assert.deepEqual(
      result.results.filter((r) => r.outcome !== 'succeeded'),
      [],
      'every issue succeeded',
    );
    assert.equal(result.status, 'completed');

    // Concurrency: the batch's own counter and the sampled query...
    assert.ok(result.maxConcurrent <= 3, `max in flight ${result.maxConcurrent}`);
    assert.equal(result.maxConcurrent, 3, 'the limit was actually used');
    const sampledMax = Math.max(...samples.map((s) => s.counts.running));
    assert.ok(samples.length > 20, `sampled the progress query (${samples.length} samples)`);
    assert.ok(sampledMax <= 3 && sampledMax >= 2, `sampled running max ${sampledMax}`);
    // ...and the server's own record of the children.
    const children = await listChildren(env.client);
    assert.equal(children.length, 10, 'exactly 10 child runs');
    assert.deepEqual(
      children.map((c) => c.workflowId).sort(),
      issues.map((n) => `${definition.name}-issue-${n}`).sort(),
      'one Workflow ID per issue',
    );
    assert.ok(children.every((c) => c.status === 'COMPLETED' && c.parentWorkflowId === batchId));
    const overlap = maxOverlap(children);
    assert.ok(overlap <= 3 && overlap >= 2, `children open at once per list(): ${overlap}`);

    // Final issue state: closed and done.
    for (const n of issues) {
      const issue = await readIssue(repoPath, n);
      assert.equal(issue.state, 'closed', `issue ${n} closed`);
      assert.ok(issue.labels.includes('done'), `issue ${n} labelled done: ${issue.labels.join(',')}`);
      assert.ok(
        !issue.labels.includes('ready') && !issue.labels.includes('in-progress'),
        `issue ${n}: ${issue.labels.join(',')}`,
      );
      assert.ok(issue.labels.includes('bug'), 'other labels untouched');
    }
    assert.match(await readFile(join(repoPath, 'src', 'sum.js'), 'utf8'), /a \+ b/, 'the fix is on main');

    // The table matches the children's own results.
    for (const row of result.results) {
      const child: RunResult = await env.client.workflow.getHandle(row.workflowId).result();
      assert.equal(row.steps, child.steps.length);
      assert.equal(row.tokens, totalTokens(child.usage));
      assert.equal(row.costUsd, child.costUsd);
      assert.equal(row.attached, false);
      assert.ok(row.tokens > 0);
    }
    assert.equal(
      result.totalTokens,
      result.results.reduce((s, r) => s + r.tokens, 0),
    );
    const stats = model.stats();
    assert.equal(stats.unmatched, 0);
    // The batch's history replays deterministically on the current code.
    await Worker.runReplayHistory(
      { workflowBundle: await workflowBundle(), replayName: 'batch of 10' },
      await handle.fetchHistory(),
      batchId,
    );
    process.stderr.write(
      `# batch of 10: maxConcurrent=${result.maxConcurrent} sampledMax=${sampledMax} listOverlap=${overlap} samples=${samples.length} byRule=${JSON.stringify(stats.byRule)}\n`,
    );
  } finally {
    await model.close();
  }
});
