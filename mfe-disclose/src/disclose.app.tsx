import { Suspense, lazy, startTransition, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@whistle/ui';
import { api } from './api';
import { LandingWithoutRouter } from './landing/landing-without-router.component';
import { peekSubmission } from './session/secret-code.store';
import { currentSession } from './session/status-outcome.store';
import type { RoutedApp as RoutedAppType, RouterEntry } from './routed.app';
import type { DataRouter } from 'react-router';
import './disclose.css';

// Named, as are the pages' chunks, so the server that draws a page can hint them (chunk-groups.json).
const loadRouter = () => import(/* webpackChunkName: "routed-app" */ './routed.app');
const RoutedApp = lazy(() => loadRouter().then(({ RoutedApp }) => ({ default: RoutedApp })));

/** A routed page whose router and first page were loaded before mounting (`routedStart`). */
export interface RoutedStart {
  readonly RoutedApp: typeof RoutedAppType;
  readonly router: DataRouter;
}

/**
 * On a routed page the server drew a first view of (the create page), the router and that page, loaded before
 * React's first render: the drawn view stays on screen until the same page replaces it. Elsewhere nothing.
 */
export async function routedStart(container: Element | null): Promise<RoutedStart | undefined> {
  if (landingOf(window.location.pathname) !== null || !container?.firstElementChild) return undefined;
  try {
    const { RoutedApp, startedRouter } = await loadRouter();
    return { RoutedApp, router: await startedRouter(api) };
  } catch {
    // The router's chunk did not come: mounted as usual, the page says so as it does when that happens later.
    return undefined;
  }
}

const decoded = (component: string) => {
  try {
    return decodeURIComponent(component);
  } catch {
    return null;
  }
};

/** The url_identifier when `pathname` is a landing page (/disclose/{urlIdentifier}), else null. */
function landingOf(pathname: string): string | null {
  const match = /^\/disclose\/([^/]+)\/?$/.exec(pathname);
  return match ? decoded(match[1]) : null;
}

/**
 * The success and review pages show what this page holds in memory (the code just sent, the report just opened);
 * with nothing held, as when they are opened by their address, their routes send the discloser to the landing page.
 * Done before the first render instead, the landing page is shown at once and without the router, taking over the
 * landing page the server drew for that address (standalone/src/page.ts).
 */
export function leaveEmptyPage() {
  const match = /^\/disclose\/([^/]+)\/(success|review)\/?$/.exec(window.location.pathname);
  const urlIdentifier = match ? decoded(match[1]) : null;
  if (urlIdentifier === null) return;
  const held = match![2] === 'success' ? peekSubmission() : currentSession(urlIdentifier);
  if (!held) window.history.replaceState(window.history.state, '', `/disclose/${match![1]}`);
}

/**
 * The discloser area. Most disclosers only see the landing page: on a first visit it is shown without
 * React Router (29 KB less to download); the router and the other pages are loaded when the discloser
 * heads for them, and from then on the router shows every page, the landing page included.
 */
export function DiscloseApp({ start }: { start?: RoutedStart }) {
  const [landing, setLanding] = useState(() => landingOf(window.location.pathname));
  const [routed, setRouted] = useState<{ entry?: RouterEntry } | null>(landing === null ? {} : null);
  const { i18n } = useTranslation(undefined, { useSuspense: false });

  // The area's translations are fetched alongside the company, not once it has arrived.
  useEffect(() => {
    void i18n.loadNamespaces('disclose');
  }, [i18n]);

  // Back or forward to another page of the area before the router was loaded.
  useEffect(() => {
    if (routed) return;
    const follow = () => {
      const next = landingOf(window.location.pathname);
      if (next === null) setRouted({});
      else setLanding(next);
    };
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, [routed]);

  if (start) return <start.RoutedApp api={api} started={start.router} />;
  return (
    <Suspense fallback={<Spinner />}>
      {routed ? (
        <RoutedApp api={api} entry={routed.entry} />
      ) : (
        <LandingWithoutRouter
          key={landing}
          api={api}
          urlIdentifier={landing!}
          // The landing page stays on screen while the router is downloaded.
          onLeave={(entry) => startTransition(() => setRouted({ entry }))}
          onIntent={() => void loadRouter()}
        />
      )}
    </Suspense>
  );
}
