/**
 * A worker process SIGKILLed in the middle of a batch, then a new one started: the
 * batch (a workflow) resumes, no issue is lost and none runs twice — exactly one child
 * execution per Workflow ID `<agent>-issue-<n>`, each completed successfully — and the
 * offline model server saw every scripted turn at least once per issue and at most once
 * more for the few runs that were in flight at the kill.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadAgentDefinitionOrThrow } from '../../../src/definition/load/load-agent-definition.js';
import { createModelServer } from '../../../src/dev/model-server/model-server.js';
import { loadSessionScript } from '../../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import { DEMO_DIR } from '../../../src/dev/sample-repo.js';
import type { BatchInput, BatchProgress } from '../../../src/contracts/batch.js';
import { runBatchWorkflow } from '../../../src/workflows/batch/run-batch.js';
import { batchProgressQuery } from '../../../src/workflows/batch/batch-messages.js';
import { teardownEnv, testEnv } from '../../helpers/temporal-env.js';
import { replaceableWorker, waitFor } from '../../helpers/worker-process.js';
import { listChildren, maxOverlap, readIssue, sampleRepoWithIssues } from './batch-fixture.js';

after(teardownEnv);

const ISSUES = 6;
const CONCURRENCY = 3;

test(
  'SIGKILL of the worker mid-batch: a new worker finishes it, no issue lost or run twice',
  { timeout: 600_000 },
  async () => {
    const env = await testEnv();
    const definition = await loadAgentDefinitionOrThrow(PROJECT_ROOT);
    const { repoPath, issues } = await sampleRepoWithIssues(ISSUES);
    const session = loadSessionScript(join(DEMO_DIR, 'session.json'));
    // A slow turn in every work step, so the kill lands with runs in flight.
    const rules = session.rules.map((r) =>
      r.id === 'work-test-commit' ? { ...r, respond: { ...r.respond, delayMs: 1500 } } : r,
    );
    const model = await createModelServer({ session: { ...session, rules } });
    const taskQueue = `batch-crash-${Date.now()}`;
    const worker = replaceableWorker(env, taskQueue, model.url);
    try {
      const input: BatchInput = {
        agentName: definition.name,
        agentDir: PROJECT_ROOT,
        repoPath,
        issueSource: 'local',
        // Each run's branch is kept, so no run's delivery changes the base another run starts
        // from: with merge, a run cut after an earlier merge has nothing left to change, which
        // the no-op guard (rightly) refuses to close, and the scripted model has no answer for.
        delivery: 'branch',
        artifactsDir: await mkdtemp(join(tmpdir(), 'batch-crash-artifacts-')),
        selection: { kind: 'label', label: 'ready' },
        concurrency: CONCURRENCY,
        // Above the activities' 5 s heartbeat timer (src/activities/edge/heartbeat.ts): a shorter timeout
        // times slow turns out even without a crash and re-asks them.
        tuning: { heartbeatTimeoutMs: 10_000 },
      };
      const handle = await env.client.workflow.start(runBatchWorkflow, {
        taskQueue,
        workflowId: `${definition.name}-batch-ready`,
        args: [input],
      });

      // Mid-batch: the 4th work step is in flight, so at least one issue is done or closing and others run.
      await waitFor(
        () => (model.stats().byRule['work-test-commit'] ?? 0) >= CONCURRENCY + 1,
        240_000,
        'the 4th work step',
      );
      const before: BatchProgress = await handle.query(batchProgressQuery);
      assert.ok(before.counts.running >= 1, `runs in flight at the kill: ${JSON.stringify(before.counts)}`);
      assert.ok(before.counts.succeeded < ISSUES, 'the batch was not finished at the kill');
      await worker.kill();
      const statsAtKill = model.stats();
      await sleep(500);
      worker.start();

      // Seen once in CI: the batch never ended after the restart (600 s). Say where it stands then.
      const result = await resultOrWhereItStands(handle.result(), 300_000, async () => {
        const progress: BatchProgress = await handle.query(batchProgressQuery);
        const children = await listChildren(env.client);
        const pending = await Promise.all(
          children
            .filter((c) => c.status === 'RUNNING')
            .map(async (c) => {
              const d = await env.client.workflow.getHandle(c.workflowId).describe();
              const acts = (d.raw.pendingActivities ?? []).map(
                (a) => `${a.activityType?.name} attempt ${a.attempt} ${a.state} ${a.lastFailure?.message ?? ''}`,
              );
              return `${c.workflowId}: [${acts.join('; ')}]`;
            }),
        );
        return `batch ${JSON.stringify(progress.counts)}; children ${children.map((c) => `${c.workflowId}:${c.status}`).join(', ')}; pending ${pending.join(' | ')}; model ${JSON.stringify(model.stats().byRule)}`;
      });
      process.stderr.write(
        `# at kill: ${JSON.stringify(before.counts)} byRule=${JSON.stringify(statsAtKill.byRule)}\n# after: byRule=${JSON.stringify(model.stats().byRule)} maxConcurrent=${result.maxConcurrent}\n`,
      );

      // No issue lost: every issue has one row, succeeded, closed + done.
      assert.deepEqual(
        result.results.map((r) => r.issue),
        issues,
      );
      // Branch delivery: no run's delivery moves the base another starts from, so each
      // succeeds; a merge conflict (possible only with merge delivery) is still tolerated.
      const conflicted = (r: (typeof result.results)[number]): boolean =>
        r.outcome === 'partial' && r.code === 'BOUNDARY_PARTIAL' && /conflict/.test(r.reason);
      assert.deepEqual(
        result.results.filter((r) => r.outcome !== 'succeeded' && !conflicted(r)),
        [],
        'every issue succeeded (or met a merge conflict at delivery)',
      );
      const delivered = new Set(result.results.filter((r) => r.outcome === 'succeeded').map((r) => r.issue));
      assert.ok(delivered.size >= ISSUES - 2, `most issues delivered: ${[...delivered].join(', ')}`);
      for (const n of issues.filter((i) => delivered.has(i))) {
        const issue = await readIssue(repoPath, n);
        assert.equal(issue.state, 'closed', `issue ${n} closed`);
        assert.deepEqual([...issue.labels].sort(), ['bug', 'done'], `issue ${n} labels`);
      }
      // None run twice: exactly one execution per Workflow ID, all completed.
      const children = await listChildren(env.client);
      assert.equal(
        children.length,
        ISSUES,
        `child executions: ${children.map((c) => `${c.workflowId}:${c.status}`).join(', ')}`,
      );
      assert.deepEqual(
        children.map((c) => c.workflowId).sort(),
        issues.map((n) => `${definition.name}-issue-${n}`).sort(),
      );
      assert.ok(
        children.every(
          (c) => c.status === 'COMPLETED' || !delivered.has(Number(c.workflowId.replace(/.*-issue-/, ''))),
        ),
        `children: ${children.map((c) => `${c.workflowId}:${c.status}`).join(', ')}`,
      );
      assert.ok(
        result.maxConcurrent <= CONCURRENCY && maxOverlap(children) <= CONCURRENCY,
        'the limit held across the crash',
      );

      // The model server's counts are consistent: each turn once per issue, plus at most one
      // repeat per run that was in flight when the worker died.
      const stats = model.stats();
      assert.equal(stats.unmatched, 0);
      for (const rule of session.rules) {
        const count = stats.byRule[rule.id] ?? 0;
        assert.ok(
          count >= ISSUES && count <= ISSUES + CONCURRENCY,
          `rule ${rule.id} asked ${count} times (expected ${ISSUES}..${ISSUES + CONCURRENCY})`,
        );
      }
      const repeated = session.rules.reduce((s, r) => s + (stats.byRule[r.id] ?? 0) - ISSUES, 0);
      assert.ok(repeated <= CONCURRENCY, `at most one repeated turn per interrupted run, got ${repeated}`);
    } finally {
      worker.close();
      await model.close();
    }
  },
);

/** The result, or after `ms` an error saying where the batch stands (`describe`). */
async function resultOrWhereItStands<T>(result: Promise<T>, ms: number, describe: () => Promise<string>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      describe().then(
        (where) => reject(new Error(`the batch did not end ${ms / 1000} s after the restart: ${where}`)),
        (err: unknown) => reject(new Error(`the batch did not end ${ms / 1000} s after the restart (${String(err)})`)),
      );
    }, ms);
  });
  try {
    return await Promise.race([result, late]);
  } finally {
    clearTimeout(timer);
  }
}
