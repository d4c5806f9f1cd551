import { Suspense, useEffect, useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { Spinner } from '@whistle/ui';
import { api } from './api';
import { discloseRoutes } from './disclose.routes';
import './disclose.css';

export function DiscloseApp() {
  // One router per mount: it listens to history until single-spa unmounts the application.
  const [router] = useState(() => createBrowserRouter(discloseRoutes(api)));
  useEffect(() => () => router.dispose(), [router]);
  return (
    <Suspense fallback={<Spinner />}>
      <RouterProvider router={router} />
    </Suspense>
  );
}
