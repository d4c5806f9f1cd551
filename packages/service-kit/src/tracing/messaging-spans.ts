import { SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

/** The tracer of service-kit's own spans (a no-op until `startTracing` registers a provider). */
const tracer = trace.getTracer('@whistle/service-kit');

export interface MessagingSpanEvent {
  id: string;
  name: string;
}

/** The kind of the error that ended a span, never its message (it may quote a value). */
function failed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute('error.type', error instanceof Error ? error.constructor.name : typeof error);
}

async function inSpan<T>(
  name: string,
  kind: SpanKind,
  attributes: Attributes,
  parent: Context,
  work: () => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, { kind, attributes }, parent, async (span) => {
    try {
      return await work();
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * The relay's publishing of one outbox event, until the bus confirmed it: a child of the unit of work that wrote
 * the event (`parent`, from the trace context its outbox row kept), active while `publish` runs so the bus
 * carries it on to the consumers. Ids and names only: never the payload or the company.
 */
export function inPublishSpan<T>(
  system: string,
  event: MessagingSpanEvent,
  parent: Context,
  publish: () => Promise<T>,
): Promise<T> {
  return inSpan(
    `publish ${event.name}`,
    SpanKind.PRODUCER,
    {
      'messaging.system': system,
      'messaging.operation.type': 'send',
      'messaging.operation.name': 'publish',
      'messaging.destination.name': event.name,
      'messaging.message.id': event.id,
    },
    parent,
    publish,
  );
}

/** One consumer's handling of one delivery of an event: a child of the span that published it (`parent`). */
export function inConsumeSpan<T>(
  options: { system: string; consumer: string; event: MessagingSpanEvent; attempt: number; parent: Context },
  handle: () => Promise<T>,
): Promise<T> {
  const { system, consumer, event, attempt, parent } = options;
  return inSpan(
    `process ${event.name}`,
    SpanKind.CONSUMER,
    {
      'messaging.system': system,
      'messaging.operation.type': 'process',
      'messaging.operation.name': 'process',
      'messaging.destination.name': event.name,
      'messaging.consumer.group.name': consumer,
      'messaging.message.id': event.id,
      'whistle.delivery.attempt': attempt,
    },
    parent,
    handle,
  );
}
