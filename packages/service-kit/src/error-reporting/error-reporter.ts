import type { PlatformConfig } from '../config/platform-config';
import { UNTRACED_PATHS } from '../tracing/untraced-paths';
import { scrubServerBreadcrumb, scrubServerEvent, scrubServerSpan } from './scrub';

/** Where a service's faults go: an error-reporting service (Sentry SDK) or nowhere. */
export interface ErrorReporter {
  /**
   * An error that became a 500 answer: a fault of the service, reported with the request's method and
   * route only. Answers the client is meant to get (4xx, 503 for a dependency that is down) are not faults.
   */
  captureServerError(error: unknown, request: { method: string; route?: string }): void;
  /** Sends what is queued, e.g. before the process exits. */
  flush(timeoutMs?: number): Promise<boolean>;
}

/** SENTRY_DSN unset: nothing is reported. */
export const noErrorReporter: ErrorReporter = {
  captureServerError: () => undefined,
  flush: () => Promise.resolve(true),
};

export type ErrorReportingConfig = Pick<
  PlatformConfig,
  'SENTRY_DSN' | 'SENTRY_ENVIRONMENT' | 'SENTRY_RELEASE' | 'SENTRY_TRACES_SAMPLE_RATE'
>;

/**
 * Default integrations the services do without: console breadcrumbs (a message may hold anything) and local
 * variables (values of a stack frame: a report's plain text, a key); the HTTP one is replaced below.
 */
const DROPPED_INTEGRATIONS = new Set(['Console', 'LocalVariables', 'Http']);

/**
 * Starts the Sentry Node SDK for this process when SENTRY_DSN is set; the SDK is only loaded then. One
 * process, one client: the standalone platform starts it once for all its services.
 */
export async function startErrorReporting(config: ErrorReportingConfig, serverName: string): Promise<ErrorReporter> {
  if (!config.SENTRY_DSN) return noErrorReporter;
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn: config.SENTRY_DSN,
    environment: config.SENTRY_ENVIRONMENT,
    release: config.SENTRY_RELEASE,
    serverName,
    tracesSampleRate: config.SENTRY_TRACES_SAMPLE_RATE,
    // No client address, cookie, header, body or query string is collected in the first place; the
    // scrubbers below remove whatever an integration still attaches.
    includeLocalVariables: false,
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false },
    // The SDK does not rewrite modules as they load: the services' code runs as written.
    enableRuntimeChannelInjection: false,
    integrations: (defaults) => [
      ...defaults.filter((integration) => !DROPPED_INTEGRATIONS.has(integration.name)),
      Sentry.httpIntegration({
        ignoreIncomingRequests: (path) => UNTRACED_PATHS.has(path),
        // Outgoing calls (object store, SMTP relay) are only breadcrumbs, by path.
        tracePropagation: false,
      }),
    ],
    beforeSend: scrubServerEvent,
    beforeSendSpan: scrubServerSpan,
    beforeBreadcrumb: scrubServerBreadcrumb,
  });
  return {
    captureServerError(error, { method, route }) {
      Sentry.withScope((scope) => {
        scope.setTag('http.method', method);
        if (route) scope.setTag('http.route', route);
        Sentry.captureException(error);
      });
    },
    flush: (timeoutMs = 2000) => Sentry.flush(timeoutMs),
  };
}
