import { useEffect, useState } from 'react';
import { RouterProvider, createBrowserRouter, type DataRouter } from 'react-router';
import type { ApiClient } from '@whistle/api-client';
import type { CompanyPublicView } from '@whistle/contracts';
import { discloseRoutes } from './disclose.routes';

/** How the router is entered from the landing page shown without it. */
export interface RouterEntry {
  /** Loaded by that landing page: the router starts with it instead of asking for it again. */
  company: CompanyPublicView;
  /** Where the discloser was going: the create page, or the review page with a secret code to post. */
  to: string;
  code?: string;
}

/**
 * A router on the current page with its first page's code and data loaded: what a page the server drew waits for,
 * so that React's first render replaces the drawn view with the same page, not with a spinner.
 */
export function startedRouter(api: ApiClient): Promise<DataRouter> {
  const router = createBrowserRouter(discloseRoutes(api));
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve(router);
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve(router);
    });
  });
}

/** The discloser pages under React Router (lazy chunk: the landing page of a first visit does without it). */
export function RoutedApp({ api, entry, started }: { api: ApiClient; entry?: RouterEntry; started?: DataRouter }) {
  // One router per mount: it listens to history until single-spa unmounts the application.
  const [router] = useState(
    () =>
      started ??
      createBrowserRouter(discloseRoutes(api), entry && { hydrationData: { loaderData: { company: entry.company } } }),
  );
  useEffect(() => {
    if (!entry) return;
    const formData = new FormData();
    if (entry.code !== undefined) formData.set('uniquePassword', entry.code);
    void router.navigate(
      entry.to,
      // Posted as the status form posts it inside the router.
      entry.code === undefined
        ? undefined
        : { formMethod: 'post', formEncType: 'application/x-www-form-urlencoded', formData },
    );
  }, [router, entry]);
  useEffect(() => () => router.dispose(), [router]);
  return <RouterProvider router={router} />;
}
