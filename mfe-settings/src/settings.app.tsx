import { Suspense, useEffect, useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { Spinner } from '@whistle/ui';
import { settingsRoutes } from './settings.routes';

export function SettingsApp() {
  // One router per mount: it listens to history until single-spa unmounts the application.
  const [router] = useState(() => createBrowserRouter(settingsRoutes));
  useEffect(() => () => router.dispose(), [router]);
  return (
    <Suspense fallback={<Spinner />}>
      <RouterProvider router={router} />
    </Suspense>
  );
}
