import type { Breadcrumb, ErrorEvent, Event, NodeOptions } from '@sentry/node';

type StreamedSpan = Parameters<NonNullable<NodeOptions['beforeSendSpan']>>[0];

/**
 * What a service's report may say about a request or a span: the method, the path without its query
 * string (retrieval ids, url identifiers and tokens travel there), the route and the status. Nothing
 * else of a request leaves the process: no body, header, cookie, query string or client address.
 */
export function pathOnly(url: string): string {
  try {
    return new URL(url, 'http://path.only').pathname;
  } catch {
    return '[unparsable url]';
  }
}

/** Span and breadcrumb data keys that could carry a client's address, headers, bodies or a query. */
const UNSAFE_DATA_KEY =
  /ip|address|peer|header|cookie|query|fragment|body|user_agent|user-agent|referer|authorization/i;
/** A URL or path in a string: its query string and fragment are dropped. */
const QUERY_IN_TEXT = /([?#])[^\s"'<>]*/g;

const scrubText = (text: string) => text.replace(QUERY_IN_TEXT, '');

function scrubData(data: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!data) return undefined;
  return Object.fromEntries(
    Object.entries(data)
      .filter(([key]) => !UNSAFE_DATA_KEY.test(key))
      .map(([key, value]) => [key, typeof value === 'string' ? scrubText(value) : value]),
  );
}

/** beforeBreadcrumb: outgoing calls (object store, broker) keep method, status and path; the console is dropped. */
export function scrubServerBreadcrumb(breadcrumb: Breadcrumb): Breadcrumb | null {
  if (breadcrumb.category === 'console') return null;
  return {
    ...breadcrumb,
    message: breadcrumb.message === undefined ? undefined : scrubText(breadcrumb.message),
    data: scrubData(breadcrumb.data),
  };
}

function scrubCommon(event: Event): Event {
  const { request } = event;
  event.request = request
    ? { method: request.method, url: request.url === undefined ? undefined : pathOnly(request.url) }
    : undefined;
  delete event.user;
  delete event.extra;
  event.breadcrumbs = event.breadcrumbs?.flatMap((crumb: Breadcrumb) => scrubServerBreadcrumb(crumb) ?? []);
  if (event.transaction) event.transaction = scrubText(event.transaction);
  return event;
}

/** beforeSend of the services: the error's type, message and stack, the request's method and path. */
export function scrubServerEvent(event: ErrorEvent): ErrorEvent {
  scrubCommon(event);
  for (const exception of event.exception?.values ?? []) {
    if (exception.value) exception.value = scrubText(exception.value);
  }
  if (event.message) event.message = scrubText(event.message);
  return event;
}

/** A span attribute's value, given bare or as `{ value, type }`, with the query strings of its text dropped. */
function scrubAttribute(value: unknown): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value && typeof value === 'object' && 'value' in value && typeof value.value === 'string')
    return { ...value, value: scrubText(value.value) };
  return value;
}

/**
 * beforeSendSpan of the services (spans are streamed, SDK default): names and attributes lose query
 * strings, client and server addresses, headers and the user agent.
 */
export function scrubServerSpan(span: StreamedSpan): StreamedSpan {
  return {
    ...span,
    name: scrubText(span.name),
    attributes: Object.fromEntries(
      Object.entries(span.attributes)
        .filter(([key]) => !UNSAFE_DATA_KEY.test(key))
        .map(([key, value]) => [key, scrubAttribute(value)]),
    ) as StreamedSpan['attributes'],
  };
}
