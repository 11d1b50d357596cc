/**
 * Worker metrics for deployments: TEMPORAL_METRICS_PROMETHEUS=host:port turns on the
 * SDK's Prometheus exporter; unset means no exporter; a bad value is a clear error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { telemetryOptionsFromEnv } from '../../src/worker/telemetry.js';
import { AgentError } from '../../src/contracts/errors.js';

test('metrics are off unless TEMPORAL_METRICS_PROMETHEUS is set', () => {
  assert.deepEqual(telemetryOptionsFromEnv({}), {});
  assert.deepEqual(telemetryOptionsFromEnv({ TEMPORAL_METRICS_PROMETHEUS: '  ' }), {});
});

test('host:port binds the Prometheus exporter, with optional prefix and global tags', () => {
  assert.deepEqual(telemetryOptionsFromEnv({ TEMPORAL_METRICS_PROMETHEUS: '0.0.0.0:9464' }), {
    metrics: { prometheus: { bindAddress: '0.0.0.0:9464' } },
  });
  assert.deepEqual(
    telemetryOptionsFromEnv({
      TEMPORAL_METRICS_PROMETHEUS: '[::]:9464',
      TEMPORAL_METRICS_PREFIX: 'agent_',
      TEMPORAL_METRICS_TAGS: 'deployment=prod, region=eu',
    }),
    {
      metrics: {
        metricPrefix: 'agent_',
        globalTags: { deployment: 'prod', region: 'eu' },
        prometheus: { bindAddress: '[::]:9464' },
      },
    },
  );
});

test('a malformed address or tag names the variable and what is expected', () => {
  for (const bad of ['9464', 'localhost', 'localhost:0', 'localhost:70000', 'http://x:1']) {
    assert.throws(
      () => telemetryOptionsFromEnv({ TEMPORAL_METRICS_PROMETHEUS: bad }),
      (err: unknown) => AgentError.isInstance(err) && err.where === 'TEMPORAL_METRICS_PROMETHEUS',
      bad,
    );
  }
  assert.throws(
    () => telemetryOptionsFromEnv({ TEMPORAL_METRICS_PROMETHEUS: '127.0.0.1:9464', TEMPORAL_METRICS_TAGS: 'novalue' }),
    (err: unknown) => AgentError.isInstance(err) && err.where === 'TEMPORAL_METRICS_TAGS',
  );
});
