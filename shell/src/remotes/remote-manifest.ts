import { registerRemotes } from '@module-federation/enhanced/runtime';
import { fetchWithRetry } from './fetch-with-retry';

/** Federation name → URL of its mf-manifest.json, per environment, read at run time. */
export type RemoteManifest = Record<string, string>;

/** Registers the remotes listed in /remotes.json, so a remote is redeployed without rebuilding the shell. */
export async function registerRemotesFromManifest(url = '/remotes.json') {
  const response = await fetchWithRetry(url, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const manifest = (await response.json()) as RemoteManifest;
  registerRemotes(Object.entries(manifest).map(([name, entry]) => ({ name, entry })));
}
