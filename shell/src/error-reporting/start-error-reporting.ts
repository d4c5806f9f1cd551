import type { BrowserErrorReportingConfig } from '@whistle/contracts';
import { setErrorReporter } from '@whistle/ui';

/**
 * Starts the browser's error reporting when the run-time manifest configures it. The SDK is a chunk of
 * its own, loaded only then: with no DSN (the standalone default) the pages download nothing more.
 */
export async function startErrorReporting(config: BrowserErrorReportingConfig | undefined): Promise<void> {
  if (!config?.dsn) {
    setErrorReporter(null);
    return;
  }
  const { initSentry } = await import(/* webpackChunkName: "error-reporting" */ './sentry');
  setErrorReporter(initSentry(config));
}
