import { Suspense, useEffect, useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router';
import type { StaffSession } from '@whistle/api-client';
import { Spinner } from '@whistle/ui';
import { SessionContext } from './session/session.context';
import { settingsRoutes } from './settings.routes';

export function SettingsApp({ session }: { session: StaffSession }) {
  // One router per mount: it listens to history until single-spa unmounts the application.
  const [router] = useState(() => createBrowserRouter(settingsRoutes));
  useEffect(() => () => router.dispose(), [router]);
  return (
    <SessionContext.Provider value={session}>
      <Suspense fallback={<Spinner />}>
        <RouterProvider router={router} />
      </Suspense>
    </SessionContext.Provider>
  );
}
