/**
 * Optional OpenTelemetry tracing of runs, off by default. It is on when the standard
 * `OTEL_TRACES_EXPORTER` is `otlp` (to `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_ENDPOINT`) or `console`. It uses Temporal's OpenTelemetry plugin:
 * client, workflow and activity interceptors propagate one trace through a run, and
 * workflow spans leave the sandbox through a sink, so replay emits nothing twice.
 * Our workflow code draws no random numbers or UUIDs, so the interceptors' PRNG use
 * on queries (sdk-typescript#2023) cannot change what a replay sees.
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';
import { AgentError } from '../contracts/errors.js';

type Env = Readonly<Record<string, string | undefined>>;

function otlpUrl(env: Env): string {
  const traces = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'];
  if (traces) return traces;
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT'] ?? 'http://127.0.0.1:4318';
  return `${base.replace(/\/$/, '')}/v1/traces`;
}

/** Builds the tracing plugin from the environment, or undefined when tracing is off. */
export function tracingPluginFromEnv(
  env: Env = process.env,
  spanProcessor?: SpanProcessor,
): OpenTelemetryPlugin | undefined {
  const mode = (env['OTEL_TRACES_EXPORTER'] ?? 'none').trim().toLowerCase();
  if (spanProcessor === undefined) {
    switch (mode) {
      case 'none':
      case '':
        return undefined;
      case 'console':
        spanProcessor = new BatchSpanProcessor(new ConsoleSpanExporter());
        break;
      case 'otlp':
        spanProcessor = new BatchSpanProcessor(new OTLPTraceExporter({ url: otlpUrl(env) }));
        break;
      default:
        throw new AgentError('CONFIG_INVALID', `OTEL_TRACES_EXPORTER must be otlp, console or none, got "${mode}"`, {
          where: 'OTEL_TRACES_EXPORTER',
        });
    }
  }
  const resource = new Resource({ 'service.name': env['OTEL_SERVICE_NAME'] ?? 'issue-agent-worker' });
  return new OpenTelemetryPlugin({ resource, spanProcessor });
}
