import { registerPlugins } from '@module-federation/enhanced/runtime';
import { registerApplication, start } from 'single-spa';
import {
  REMOTE_APPLICATIONS,
  isCompanyAppPath,
  isOwnedBy,
  isShellPath,
  loadRemoteLifecycles,
  withProps,
} from './applications';
import { startErrorReporting } from './error-reporting/start-error-reporting';
import { initI18n } from './i18n/init-i18n';
import { registerRemotesFromManifest } from './remotes/remote-manifest';
import { fallbackPlugin } from './runtime-plugins/fallback.plugin';
import { retryPlugin } from './runtime-plugins/retry.plugin';

registerPlugins([retryPlugin(), fallbackPlugin()]);

// Every application of the page renders with React DOM (shared): downloading it now, while the remote's
// manifest and entry are fetched, takes it off the path to the first page instead of after them.
void import('react-dom/client');

// A missing manifest is logged; loading a remote then fails into the fallback lifecycles.
const manifestRead = registerRemotesFromManifest();
const remotesRegistered = manifestRead.then(
  () => undefined,
  (error: unknown) => console.error('Remote manifest could not be loaded', error),
);
// Error reporting as the manifest configures it: off (nothing more loaded) without a DSN or a manifest.
void manifestRead.then(startErrorReporting, () => startErrorReporting(undefined));

// The staff session holds the keyring (person and company keys, passkeys: about 8 KB Brotli): loaded with the
// company app only, never on a discloser's page.
const loadStaffSession = () => import('./session/staff-session').then(({ staffSession }) => staffSession);

for (const application of REMOTE_APPLICATIONS) {
  const load = () => loadRemoteLifecycles(application.name, remotesRegistered);
  registerApplication({
    name: application.name,
    // The company app's remotes reach the session (token, profile, company key in memory) only through this prop.
    app: application.companyApp
      ? () =>
          Promise.all([load(), loadStaffSession()]).then(([lifecycles, session]) => withProps(lifecycles, { session }))
      : load,
    activeWhen: (location) => isOwnedBy(application, location.pathname),
  });
}
registerApplication({
  name: 'company_frame',
  app: () => import('./company-app/company-frame.lifecycles'),
  activeWhen: (location) => isCompanyAppPath(location.pathname),
});
registerApplication({
  name: 'shell',
  // Named, so the server that draws the login page can hint its files (chunk-groups.json).
  app: () => import(/* webpackChunkName: "public-pages" */ './public-pages/public-pages.lifecycles'),
  activeWhen: (location) => isShellPath(location.pathname),
});

// Applications start loading as soon as they are registered; mounting waits for the translations.
void initI18n().finally(() => start());
