import { diag } from '@opentelemetry/api';
import { getNumberFromEnv } from '@opentelemetry/core';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';
import { instrumentLibraries } from './instrumentations';
import { tracesExporters, tracesRequested, type TracingEnvironment } from './tracing-config';

/** This process's traces: flushed and stopped on shutdown. */
export interface Tracing {
  readonly enabled: boolean;
  /** Exports the spans still queued and stops; after the service stopped, before the process exits. */
  shutdown(): Promise<void>;
}

export const noTracing: Tracing = { enabled: false, shutdown: () => Promise.resolve() };

/** The OTLP exporter of OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL; each reads its endpoint, headers and timeout itself. */
async function otlpExporter(env: TracingEnvironment): Promise<SpanExporter> {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  switch (protocol) {
    case 'grpc':
      return new (await import('@opentelemetry/exporter-trace-otlp-grpc')).OTLPTraceExporter();
    case 'http/json':
      return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
    case 'http/protobuf':
      return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
    default:
      throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL must be grpc, http/json or http/protobuf, not ${protocol}`);
  }
}

/**
 * The span processors OTEL_TRACES_EXPORTER names (`otlp` by default, `console`), each behind the redaction
 * processor; a batch processor tuned by the standard OTEL_BSP_* variables for OTLP.
 */
async function spanProcessors(env: TracingEnvironment): Promise<SpanProcessor[]> {
  const { BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace');
  const { RedactingSpanProcessor } = await import('./redacting-span-processor');
  const names = tracesExporters(env);
  const processors: SpanProcessor[] = [new RedactingSpanProcessor()];
  for (const name of names.length ? names : ['otlp']) {
    if (name === 'console') processors.push(new SimpleSpanProcessor({ exporter: new ConsoleSpanExporter() }));
    else if (name === 'otlp')
      processors.push(
        new BatchSpanProcessor({
          exporter: await otlpExporter(env),
          maxQueueSize: getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE'),
          scheduledDelayMillis: getNumberFromEnv('OTEL_BSP_SCHEDULE_DELAY'),
          exportTimeoutMillis: getNumberFromEnv('OTEL_BSP_EXPORT_TIMEOUT'),
          maxExportBatchSize: getNumberFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
        }),
      );
    else throw new Error(`OTEL_TRACES_EXPORTER must name otlp, console or none, not ${name}`);
  }
  return processors;
}

/**
 * Starts this process's OpenTelemetry traces when the OTEL_* variables ask for them (`tracesRequested`), else
 * does nothing and loads nothing. The SDK reads the rest of the standard variables itself: OTEL_SERVICE_NAME
 * and OTEL_RESOURCE_ATTRIBUTES (`serviceName` when neither names the service), OTEL_TRACES_SAMPLER(_ARG),
 * OTEL_PROPAGATORS (W3C trace context alone when unset), the span limits. Only traces: metrics stay Prometheus' and logs stay pino's.
 *
 * It registers the global tracer provider, context manager and propagator; the Sentry SDK (error reporting)
 * registers none of these unless `enableOpenTelemetrySetup` is set, which service-kit never does, so the two
 * run side by side. One process, one call: the standalone platform starts it once for all its services.
 */
export async function startTracing(serviceName: string, env: TracingEnvironment = process.env): Promise<Tracing> {
  if (!tracesRequested(env)) return noTracing;
  // Patches what is loaded from now on; a service's `main` imports `@whistle/service-kit/instrument` first so
  // that http, express and pg are among them.
  instrumentLibraries();
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const { W3CTraceContextPropagator } = await import('@opentelemetry/core');
  const named = Boolean(env.OTEL_SERVICE_NAME) || /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  const sdk = new NodeSDK({
    serviceName: named ? undefined : serviceName,
    spanProcessors: await spanProcessors(env),
    // Instrumentations are registered above, once per process; metrics and logs have their own pipelines.
    instrumentations: [],
    // OTEL_PROPAGATORS unset: W3C trace context only, without the SDK's default baggage, so what a client puts in
    // a `baggage` header is neither kept in context nor passed on to the calls a service makes.
    textMapPropagator: env.OTEL_PROPAGATORS ? undefined : new W3CTraceContextPropagator(),
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  diag.debug('OpenTelemetry traces started');
  return { enabled: true, shutdown: () => sdk.shutdown() };
}
