/**
 * Optional tracing: off by default; when on, one run exports spans for the workflow
 * and its activities, and the traced history replays on the plain worker (tracing does
 * not change what the workflow does).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Worker } from '@temporalio/worker';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { tracingPluginFromEnv } from '../../src/worker/tracing.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv, workflowBundle } from '../helpers/temporal-env.js';

after(teardownEnv);

test('tracing is off unless OTEL_TRACES_EXPORTER asks for it; a bad value names the variable', () => {
  assert.equal(tracingPluginFromEnv({}), undefined);
  assert.equal(tracingPluginFromEnv({ OTEL_TRACES_EXPORTER: 'none' }), undefined);
  assert.ok(tracingPluginFromEnv({ OTEL_TRACES_EXPORTER: 'console' }));
  assert.throws(() => tracingPluginFromEnv({ OTEL_TRACES_EXPORTER: 'zipkin' }), /OTEL_TRACES_EXPORTER/);
});

test(
  'a traced run exports workflow and activity spans and replays on the plain worker',
  { timeout: 240_000 },
  async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = tracingPluginFromEnv({}, new SimpleSpanProcessor(exporter));
    const { result, handle, workflowId } = await runScenario({
      session: join(DEMO_DIR, 'session.json'),
      ...(tracing ? { tracing } : {}),
    });
    assert.equal(result.outcome, 'success', result.reason);
    const names = exporter.getFinishedSpans().map((s) => s.name);
    assert.ok(
      names.some((n) => n.includes('runAgentWorkflow')),
      `a workflow span: ${[...new Set(names)].join(', ')}`,
    );
    assert.ok(
      names.some((n) => n.includes('queryStep')),
      'an activity span for the step query',
    );
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, await handle.fetchHistory(), workflowId);
  },
);
