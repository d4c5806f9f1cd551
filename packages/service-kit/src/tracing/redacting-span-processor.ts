import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace';

/**
 * The span attributes that may leave the process, by exact key or prefix; every other attribute is dropped
 * before export. An allow-list, because instrumentations add attributes with each release: what they record
 * next (a client address, a header, a query string, a statement's values) must stay in by no one's decision.
 * What is kept says which operation ran and how it ended: methods, route templates (never the path a request
 * took: ids and codes travel there), status codes, SQL text with its `$n` placeholders (never the values),
 * the messaging fields of our own spans, and the kind of error.
 */
const ALLOWED_KEYS = new Set([
  'http.method',
  'http.request.method',
  'http.route',
  'http.status_code',
  'http.response.status_code',
  'http.flavor',
  'network.protocol.name',
  'network.protocol.version',
  'url.scheme',
  'db.system',
  'db.system.name',
  'db.name',
  'db.namespace',
  'db.statement',
  'db.query.text',
  'db.operation.name',
  'db.collection.name',
  'error.type',
]);
const ALLOWED_PREFIXES = ['messaging.', 'express.', 'whistle.'];

const QUERY_AND_FRAGMENT = /[?#]\S*/g;

/** Span events whose names are kept (their attributes are not: an exception's message may quote a value). */
const EXCEPTION_EVENT = 'exception';

export function isAllowedAttribute(key: string): boolean {
  return ALLOWED_KEYS.has(key) || ALLOWED_PREFIXES.some((prefix) => key.startsWith(prefix));
}

/**
 * Runs first among the span processors, while a span is ending and still writable (`onEnding`): drops every
 * attribute not allowed above, the message of its status and the attributes of its events but an exception's
 * type. Database errors quote the value they refused ("invalid input syntax for type uuid: …"), so neither a
 * status message nor an exception message is exported.
 */
export class RedactingSpanProcessor implements SpanProcessor {
  onStart(_span: Span, _parentContext: Context): void {}

  onEnding(span: Span): void {
    // The SDK offers no way to remove an attribute; its span keeps them in a plain object, writable until ended.
    const attributes = span.attributes as Record<string, unknown>;
    for (const key of Object.keys(attributes)) if (!isAllowedAttribute(key)) delete attributes[key];
    if (span.status.message !== undefined) span.setStatus({ code: span.status.code });
    for (const event of span.events) {
      const type = event.name === EXCEPTION_EVENT ? event.attributes?.['exception.type'] : undefined;
      event.attributes = typeof type === 'string' ? { 'exception.type': type } : {};
    }
    // Names are route templates, statements and event names; a URL's query string never stays in one.
    const name = span.name.replace(QUERY_AND_FRAGMENT, '');
    if (name !== span.name) span.updateName(name);
  }

  onEnd(_span: ReadableSpan): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
