import { useEffect, useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router';
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

/** The discloser pages under React Router (lazy chunk: the landing page of a first visit does without it). */
export function RoutedApp({ api, entry }: { api: ApiClient; entry?: RouterEntry }) {
  // One router per mount: it listens to history until single-spa unmounts the application.
  const [router] = useState(() =>
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
