import { loadRemote } from '@module-federation/enhanced/runtime';
import type { LifeCycles } from 'single-spa';
import { matchesPrefix } from '@whistle/contracts';

interface RemoteApplication {
  /** Federation name, as listed in /remotes.json. */
  name: string;
  /** Paths the remote owns (whole segments). */
  prefixes: readonly string[];
}

export const REMOTE_APPLICATIONS: readonly RemoteApplication[] = [
  { name: 'mfe_disclose', prefixes: ['/disclose'] },
  { name: 'mfe_incidents', prefixes: ['/company/incidents', '/company/team', '/company/reporting'] },
  { name: 'mfe_settings', prefixes: ['/company/settings'] },
];

export const isOwnedBy = (application: RemoteApplication, pathname: string) =>
  application.prefixes.some((prefix) => matchesPrefix(pathname, prefix));

/** The shell's own pages (company public pages) take every path no remote owns. */
export const isShellPath = (pathname: string) => !REMOTE_APPLICATIONS.some((application) => isOwnedBy(application, pathname));

/** Lifecycles of a remote; when it cannot be loaded the fallback runtime plugin answers instead. */
export async function loadRemoteLifecycles(name: string, remotesRegistered: Promise<void>): Promise<LifeCycles> {
  await remotesRegistered;
  const lifecycles = await loadRemote<LifeCycles>(`${name}/lifecycles`);
  if (!lifecycles) throw new Error(`Remote ${name} exposes no lifecycles`);
  return lifecycles;
}
