import { Suspense, useEffect, useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { Spinner } from '@whistle/ui';
import { incidentsRoutes } from './incidents.routes';

export function IncidentsApp() {
  // One router per mount: it listens to history until single-spa unmounts the application.
  const [router] = useState(() => createBrowserRouter(incidentsRoutes));
  useEffect(() => () => router.dispose(), [router]);
  return (
    <Suspense fallback={<Spinner />}>
      <RouterProvider router={router} />
    </Suspense>
  );
}
