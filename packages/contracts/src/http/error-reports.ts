/**
 * Where the browser sends its error reports (Sentry envelopes, the SDK's `tunnel` option): a path of our
 * own origin, so the pages' Content-Security-Policy keeps `connect-src 'self'` and nothing leaves the
 * browser for a third party. The API forwards each envelope to the configured DSN only (routes.json: auth).
 */
export const ERROR_REPORT_TUNNEL_PATH = '/api/error-reports/envelope';

/**
 * The `errorReporting` entry of the shell's run-time manifest (`/remotes.json`, beside the remotes): the
 * browser's error reporting, per environment. Absent: off, and the pages load nothing of the SDK.
 */
export interface BrowserErrorReportingConfig {
  /** DSN of the browser's project; the tunnel forwards to it only (SENTRY_BROWSER_DSN of the API). */
  dsn: string;
  /** Spec §8: 1 unless an operator lowers it. */
  tracesSampleRate?: number;
  environment?: string;
  release?: string;
}
