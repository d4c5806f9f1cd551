import { registerRemotes } from '@module-federation/enhanced/runtime';
import type { BrowserErrorReportingConfig } from '@whistle/contracts';
import { fetchWithRetry } from './fetch-with-retry';

/**
 * The shell's run-time manifest, per environment: federation name → URL of its mf-manifest.json, and
 * optionally `errorReporting` (the browser's error reporting; absent = off).
 */
export type RemoteManifest = Record<string, string> & { errorReporting?: BrowserErrorReportingConfig };

let registration: Promise<void> = Promise.resolve();

/** Settles once the page's remotes are registered, or could not be (never rejects): what `loadRemote` waits for. */
export const remotesRegistered = (): Promise<void> => registration;

/**
 * Registers the remotes listed in /remotes.json, so a remote is redeployed without rebuilding the shell;
 * returns the error-reporting configuration it holds, if any.
 */
export function registerRemotesFromManifest(url = '/remotes.json'): Promise<BrowserErrorReportingConfig | undefined> {
  const read = (async () => {
    const response = await fetchWithRetry(url, { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    const { errorReporting, ...remotes } = (await response.json()) as RemoteManifest;
    registerRemotes(Object.entries(remotes).map(([name, entry]) => ({ name, entry: String(entry) })));
    return errorReporting;
  })();
  registration = read.then(
    () => undefined,
    () => undefined,
  );
  return read;
}
