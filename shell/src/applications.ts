import { loadRemote, preloadRemote } from '@module-federation/enhanced/runtime';
import i18n from 'i18next';
import type { AppProps, LifeCycles } from 'single-spa';
import { matchesPrefix } from '@whistle/contracts';
import { remotesRegistered } from './remotes/remote-manifest';

interface RemoteApplication {
  /** Federation name, as listed in /remotes.json. */
  name: string;
  /** Paths the remote owns (whole segments). */
  prefixes: readonly string[];
  /** Part of the company app: signed-in staff only, under the shell's frame, given the staff session. */
  companyApp: boolean;
  /** Its translations' namespace (/locales/{lng}/{namespace}.json). */
  namespace: string;
}

export const REMOTE_APPLICATIONS: readonly RemoteApplication[] = [
  { name: 'mfe_disclose', prefixes: ['/disclose'], companyApp: false, namespace: 'disclose' },
  {
    name: 'mfe_incidents',
    prefixes: ['/company/incidents', '/company/team', '/company/reporting'],
    companyApp: true,
    namespace: 'incidents',
  },
  { name: 'mfe_settings', prefixes: ['/company/settings'], companyApp: true, namespace: 'settings' },
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

/**
 * Downloads, without running it, the code of the remote that will draw `pathname` (its entry and the files of its
 * lifecycles), its translations and the company frame around it: the login page asks for the page it leads to
 * while the person types. Never fails: a preload that cannot be done is the load's to retry.
 */
export async function preloadApplicationFor(pathname: string): Promise<void> {
  const application = REMOTE_APPLICATIONS.find((candidate) => isOwnedBy(candidate, pathname));
  if (!application) return;
  void i18n.loadNamespaces(application.namespace).catch(() => undefined);
  if (application.companyApp) void import('./company-app/company-frame.lifecycles').catch(() => undefined);
  await remotesRegistered();
  try {
    // It may throw before returning a promise (no federation instance, as in tests).
    await preloadRemote([{ nameOrAlias: application.name, exposes: ['./lifecycles'] }]);
  } catch {
    // The load asks again, and reports what fails.
  }
}

/**
 * Downloads and runs (without mounting) the lifecycles module of the remote that will draw `pathname`: the login
 * page starts it once the password's derivation is under way in its worker, so that code's evaluation (the
 * incidents remote's schemas: ≈ 0.5 s at 4× CPU) is done by the time the token arrives, and single-spa's load then
 * finds the module already run. Mounting stays single-spa's, after the sign-in. Never fails: the load retries.
 */
export async function loadApplicationFor(pathname: string): Promise<void> {
  const application = REMOTE_APPLICATIONS.find((candidate) => isOwnedBy(candidate, pathname));
  if (!application) return;
  try {
    await loadRemoteLifecycles(application.name, remotesRegistered());
  } catch {
    // The load asks again, and reports what fails.
  }
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
