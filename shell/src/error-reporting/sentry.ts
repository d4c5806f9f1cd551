import * as Sentry from '@sentry/react';
import { isIgnoredByErrorReporting, isIgnoredStatus } from '@whistle/api-client';
import { ERROR_REPORT_TUNNEL_PATH, type BrowserErrorReportingConfig } from '@whistle/contracts';
import { scrubDeep, scrubText, withoutUnsafeKeys } from './scrub';

type ErrorEvent = Parameters<NonNullable<Sentry.BrowserOptions['beforeSend']>>[0];
type StreamedSpan = Parameters<NonNullable<Sentry.BrowserOptions['beforeSendSpan']>>[0];

/** React Router's answer of a route (`isRouteErrorResponse`): a status, never its data (a body, a path). */
function routeErrorStatus(error: unknown): number | undefined {
  if (error === null || typeof error !== 'object' || error instanceof Error) return undefined;
  const { status, statusText, internal } = error as { status?: unknown; statusText?: unknown; internal?: unknown };
  return typeof status === 'number' && typeof statusText === 'string' && typeof internal === 'boolean'
    ? status
    : undefined;
}

/** What a route error boundary caught, as something the SDK reports by type and message. */
function reportable(error: unknown): unknown {
  const status = routeErrorStatus(error);
  if (status === undefined) return error;
  return Object.assign(new Error(`Route answered ${status}`), { name: 'RouteErrorResponse', status });
}

/** Spec §8 for every error the SDK sees: API errors with status 0, 401, 403, 413 or 5xx are not sent. */
function isIgnored(error: unknown): boolean {
  if (isIgnoredByErrorReporting(error)) return true;
  const status = (error as { name?: unknown; status?: unknown } | null)?.status;
  return (error as { name?: unknown } | null)?.name === 'RouteErrorResponse' && typeof status === 'number'
    ? isIgnoredStatus(status)
    : false;
}

/** An API error's message can hold the answer's body (spec §8's generic message): only the status is sent. */
function withoutApiBody(event: ErrorEvent, error: unknown): void {
  const status = (error as { name?: unknown; status?: unknown } | null)?.status;
  if ((error as { name?: unknown } | null)?.name !== 'ApiError' || typeof status !== 'number') return;
  for (const exception of event.exception?.values ?? []) {
    if (exception.type === 'ApiError') exception.value = `API answered ${status}`;
  }
}

function scrubEvent(event: ErrorEvent): ErrorEvent {
  // Of the request only the page's address, made safe below; no headers, cookies, query string or body.
  event.request = event.request?.url ? { url: event.request.url } : undefined;
  delete event.user;
  delete event.extra;
  event.breadcrumbs = event.breadcrumbs?.flatMap((crumb) => scrubBreadcrumb(crumb) ?? []);
  return scrubDeep(event);
}

/** Console messages may hold anything and typed input is no one's business; the rest lose query strings. */
function scrubBreadcrumb(breadcrumb: Sentry.Breadcrumb): Sentry.Breadcrumb | null {
  if (breadcrumb.category === 'console' || breadcrumb.category === 'ui.input') return null;
  return scrubDeep({ ...breadcrumb, data: breadcrumb.data && withoutUnsafeKeys(breadcrumb.data) });
}

function scrubSpan(span: StreamedSpan): StreamedSpan {
  return scrubDeep({ ...span, attributes: withoutUnsafeKeys(span.attributes) });
}

/**
 * The Sentry browser SDK, for the shell and every remote (they report through `reportError` of
 * @whistle/ui, which hands errors to this client). Envelopes go to the same-origin tunnel, never to a
 * third party. Returns how the page's own error boundaries report.
 */
export function initSentry(config: BrowserErrorReportingConfig): (error: unknown) => void {
  Sentry.init({
    dsn: config.dsn,
    tunnel: ERROR_REPORT_TUNNEL_PATH,
    environment: config.environment,
    release: config.release,
    // Spec §8: trace sample rate 1, unless the operator lowers it.
    tracesSampleRate: config.tracesSampleRate ?? 1,
    // No client address is inferred, no cookie, header, body or query string collected.
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false },
    integrations: (defaults) => [
      // Console messages may hold anything: not even kept as breadcrumbs.
      ...defaults.filter((integration) => !/console/i.test(integration.name)),
      Sentry.browserTracingIntegration({
        // Names are the page's path: scrubbed before the trace starts, since the name also travels in the
        // trace's header (and the `baggage` sent to our API).
        beforeStartSpan: (options) => ({ ...options, name: scrubText(options.name) }),
      }),
    ],
    beforeSend: (event, hint) => {
      if (isIgnored(hint.originalException)) return null;
      withoutApiBody(event, hint.originalException);
      return scrubEvent(event);
    },
    beforeSendSpan: scrubSpan,
    beforeBreadcrumb: scrubBreadcrumb,
  });
  return (error) => {
    Sentry.captureException(reportable(error));
  };
}
