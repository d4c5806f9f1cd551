import { ERROR_REPORT_TUNNEL_PATH } from '@whistle/contracts';

/**
 * Requests that are no one's business in a trace, OpenTelemetry's or the error-reporting service's: probes,
 * scrapes and the browser's own error reports. A module of its own, light enough for `instrument` to load before
 * what it patches.
 */
export const UNTRACED_PATHS: ReadonlySet<string> = new Set([
  '/healthz',
  '/readyz',
  '/metrics',
  ERROR_REPORT_TUNNEL_PATH,
]);
