import { Suspense, useEffect, useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { Spinner } from '@whistle/ui';
import { publicRoutes } from './public-pages.routes';

/** Company public pages (no login): sign-in, password reset, onboarding. */
export function PublicPagesApp() {
  // One router per mount: it listens to history until the application is unmounted.
  const [router] = useState(() => createBrowserRouter(publicRoutes));
  useEffect(() => () => router.dispose(), [router]);
  return (
    <Suspense fallback={<Spinner />}>
      <RouterProvider router={router} />
    </Suspense>
  );
}
