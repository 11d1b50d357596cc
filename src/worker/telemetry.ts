/**
 * Worker/client SDK metrics from the environment, for `Runtime.install({ telemetryOptions })`.
 * Off by default. `TEMPORAL_METRICS_PROMETHEUS=host:port` serves Prometheus metrics
 * (the SDK's worker_task_slots_available, sticky_cache_*, workflow_task_schedule_to_start_latency,
 * activity_schedule_to_start_latency, activity_execution_latency, …) at http://host:port/metrics.
 *
 * Optional: `TEMPORAL_METRICS_PREFIX` (default `temporal_`), and
 * `TEMPORAL_METRICS_TAGS=key=value,key=value` (global tags on every metric, e.g. the deployment).
 */
import type { TelemetryOptions } from '@temporalio/worker';
import { AgentError } from '../contracts/errors.js';

const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

function parseBindAddress(value: string): string {
  const match = HOST_PORT.exec(value);
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || !(port >= 1 && port <= 65535)) {
    throw new AgentError(
      'CONFIG_INVALID',
      `TEMPORAL_METRICS_PROMETHEUS must be host:port, got ${JSON.stringify(value)}`,
      {
        where: 'TEMPORAL_METRICS_PROMETHEUS',
        expected: 'host:port to bind the Prometheus exporter, e.g. 0.0.0.0:9464 (unset it to turn metrics off)',
      },
    );
  }
  return value;
}

function parseTags(value: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const pair of value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      throw new AgentError('CONFIG_INVALID', `TEMPORAL_METRICS_TAGS entry ${JSON.stringify(pair)} is not key=value`, {
        where: 'TEMPORAL_METRICS_TAGS',
        expected: 'comma-separated key=value pairs',
      });
    }
    tags[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return tags;
}

/**
 * The telemetry options for Runtime.install. Returns `{}` (the SDK's defaults: no
 * metrics exporter) when TEMPORAL_METRICS_PROMETHEUS is unset or empty.
 */
export function telemetryOptionsFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): TelemetryOptions {
  const bind = env['TEMPORAL_METRICS_PROMETHEUS']?.trim();
  if (bind === undefined || bind === '') return {};
  const prefix = env['TEMPORAL_METRICS_PREFIX']?.trim();
  const tags = env['TEMPORAL_METRICS_TAGS']?.trim();
  return {
    metrics: {
      ...(prefix ? { metricPrefix: prefix } : {}),
      ...(tags ? { globalTags: parseTags(tags) } : {}),
      prometheus: { bindAddress: parseBindAddress(bind) },
    },
  };
}
