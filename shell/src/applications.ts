import { loadRemote } from '@module-federation/enhanced/runtime';
import type { AppProps, LifeCycles } from 'single-spa';
import { matchesPrefix } from '@whistle/contracts';

interface RemoteApplication {
  /** Federation name, as listed in /remotes.json. */
  name: string;
  /** Paths the remote owns (whole segments). */
  prefixes: readonly string[];
  /** Part of the company app: signed-in staff only, under the shell's frame, given the staff session. */
  companyApp: boolean;
}

export const REMOTE_APPLICATIONS: readonly RemoteApplication[] = [
  { name: 'mfe_disclose', prefixes: ['/disclose'], companyApp: false },
  { name: 'mfe_incidents', prefixes: ['/company/incidents', '/company/team', '/company/reporting'], companyApp: true },
  { name: 'mfe_settings', prefixes: ['/company/settings'], companyApp: true },
];

export const isOwnedBy = (application: RemoteApplication, pathname: string) =>
  application.prefixes.some((prefix) => matchesPrefix(pathname, prefix));

/** Paths of the company app (login required): the shell draws its frame and guards them. */
export const isCompanyAppPath = (pathname: string) =>
  REMOTE_APPLICATIONS.some((application) => application.companyApp && isOwnedBy(application, pathname));

/** The shell's own pages (company public pages) take every path no remote owns. */
export const isShellPath = (pathname: string) =>
  !REMOTE_APPLICATIONS.some((application) => isOwnedBy(application, pathname));

/** Lifecycles of a remote; when it cannot be loaded the fallback runtime plugin answers instead. */
export async function loadRemoteLifecycles(name: string, remotesRegistered: Promise<void>): Promise<LifeCycles> {
  await remotesRegistered;
  const lifecycles = await loadRemote<LifeCycles>(`${name}/lifecycles`);
  if (!lifecycles) throw new Error(`Remote ${name} exposes no lifecycles`);
  return lifecycles;
}

type LifeCycle = (props: AppProps) => Promise<unknown>;

/**
 * `lifecycles` with `extra` added to the props of every call: props single-spa cannot be given at registration
 * because what they hold is loaded with the application (the staff session, see bootstrap.ts).
 */
export function withProps(lifecycles: LifeCycles, extra: object): LifeCycles {
  const add = (lifecycle: LifeCycle) => (props: AppProps) => lifecycle({ ...props, ...extra });
  const wrap = (lifecycle: LifeCycle | LifeCycle[]) => (Array.isArray(lifecycle) ? lifecycle.map(add) : add(lifecycle));
  return {
    bootstrap: wrap(lifecycles.bootstrap),
    mount: wrap(lifecycles.mount),
    unmount: wrap(lifecycles.unmount),
    ...(lifecycles.update ? { update: wrap(lifecycles.update) } : {}),
  };
}
