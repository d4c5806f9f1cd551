import { context, ROOT_CONTEXT, trace, type Context, type TextMapGetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

/**
 * A unit of work's W3C trace context (`traceparent`, `tracestate`), as the outbox row keeps it and the AMQP
 * message carries it in its headers. Only these two: baggage a client sent with its request is not carried on.
 */
export interface TraceContext {
  traceparent: string;
  tracestate?: string;
}

// The W3C propagator alone, whatever OTEL_PROPAGATORS says for HTTP: the outbox column and the message headers
// hold exactly the W3C fields.
const w3c = new W3CTraceContextPropagator();

const headerGetter: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** The trace context of `ctx` (the active one by default), or null when no span is being recorded or sampled. */
export function traceContextOf(ctx: Context = context.active()): TraceContext | null {
  // With tracing off the active span is always absent: no propagator call, no allocation.
  if (!trace.getSpan(ctx)) return null;
  const carrier: Record<string, string> = {};
  w3c.inject(ctx, carrier, { set: (target, key, value) => (target[key] = value) });
  if (!carrier.traceparent) return null;
  return carrier.tracestate
    ? { traceparent: carrier.traceparent, tracestate: carrier.tracestate }
    : { traceparent: carrier.traceparent };
}

/**
 * The context a stored trace context (outbox row) or a message's headers continue; the root context when there
 * is none or it is malformed (a message published by hand), so the consumer starts a trace of its own.
 */
export function contextFromTraceContext(
  carrier: TraceContext | Readonly<Record<string, unknown>> | null | undefined,
): Context {
  if (!carrier) return ROOT_CONTEXT;
  return w3c.extract(ROOT_CONTEXT, carrier as Readonly<Record<string, unknown>>, headerGetter);
}
