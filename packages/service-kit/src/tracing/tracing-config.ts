/** The standard OpenTelemetry variables that decide whether a process exports traces. */
export type TracingEnvironment = Readonly<Record<string, string | undefined>>;

/**
 * Whether the OTEL_* variables ask for traces: an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or an explicit OTEL_TRACES_EXPORTER, and neither OTEL_SDK_DISABLED=true nor
 * OTEL_TRACES_EXPORTER=none. Unlike the SDK's own default (OTLP to localhost:4318), nothing set means off: a
 * standalone install exports nothing and loads none of the tracing SDK.
 */
export function tracesRequested(env: TracingEnvironment): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = tracesExporters(env);
  if (exporters.includes('none')) return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || exporters.length > 0);
}

/** OTEL_TRACES_EXPORTER as a list (`otlp`, `console`, `none`); empty when unset. */
export function tracesExporters(env: TracingEnvironment): string[] {
  return (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
}
