import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { fetchWithRetry } from '../remotes/fetch-with-retry';

type LoadEntryError = NonNullable<ModuleFederationRuntimePlugin['loadEntryError']>;
type RemoteEntry = Awaited<ReturnType<Parameters<LoadEntryError>[0]['getRemoteEntry']>>;

const ENTRY_RETRIES = 2;

async function retryRemoteEntry(...[args]: Parameters<LoadEntryError>): Promise<RemoteEntry | undefined> {
  const { getRemoteEntry, origin, remoteInfo, remoteEntryExports, globalLoading, uniqueKey } = args;
  for (let attempt = 1; attempt <= ENTRY_RETRIES; attempt += 1) {
    // The failed script load is cached under this key; drop it so the script is requested again.
    delete globalLoading[uniqueKey];
    await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    try {
      const entry = await getRemoteEntry({ origin, remoteInfo, remoteEntryExports });
      if (entry) return entry;
    } catch {
      // next attempt
    }
  }
  return undefined;
}

/** First layer of failure handling: network errors while fetching a manifest or a remote entry are retried. */
export function retryPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'whistle-retry',
    fetch: (url, init) => fetchWithRetry(url, init),
    // The declared hook type nests a promise in a promise; the runtime awaits the value either way.
    loadEntryError: retryRemoteEntry as unknown as LoadEntryError,
  };
}
