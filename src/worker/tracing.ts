/**
 * Optional OpenTelemetry tracing of runs, off by default. It is on when the standard
 * `OTEL_TRACES_EXPORTER` is `otlp` (to `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_ENDPOINT`) or `console`. It uses Temporal's OpenTelemetry plugin:
 * client, workflow and activity interceptors propagate one trace through a run, and
 * workflow spans leave the sandbox through a sink, so replay emits nothing twice.
 * Our workflow code draws no random numbers or UUIDs, so the interceptors' PRNG use
 * on queries (sdk-typescript#2023) cannot change what a replay sees.
 */
import { createRequire } from 'node:module';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Resources from '@opentelemetry/resources';
import type * as TraceBase from '@opentelemetry/sdk-trace-base';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type * as TemporalOtel from '@temporalio/interceptors-opentelemetry';
import type { OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';
import { AgentError } from '../contracts/errors.js';

// Loaded only when tracing is on: the OpenTelemetry packages add ~0.3 s to every worker start.
const load = createRequire(import.meta.url);
const otlpHttp = (): typeof OtlpHttp => load('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp;
const traceBase = (): typeof TraceBase => load('@opentelemetry/sdk-trace-base') as typeof TraceBase;

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
        spanProcessor = new (traceBase().BatchSpanProcessor)(new (traceBase().ConsoleSpanExporter)());
        break;
      case 'otlp':
        spanProcessor = new (traceBase().BatchSpanProcessor)(new (otlpHttp().OTLPTraceExporter)({ url: otlpUrl(env) }));
        break;
      default:
        throw new AgentError('CONFIG_INVALID', `OTEL_TRACES_EXPORTER must be otlp, console or none, got "${mode}"`, {
          where: 'OTEL_TRACES_EXPORTER',
        });
    }
  }
  const { Resource } = load('@opentelemetry/resources') as typeof Resources;
  const { OpenTelemetryPlugin: Plugin } = load('@temporalio/interceptors-opentelemetry') as typeof TemporalOtel;
  const resource = new Resource({ 'service.name': env['OTEL_SERVICE_NAME'] ?? 'issue-agent-worker' });
  return new Plugin({ resource, spanProcessor });
}
