import { Suspense } from 'react';
import { RouterProvider, type RouteObject } from 'react-router';
import type { StaffSession } from '@whistle/api-client';
import { Spinner } from '@whistle/ui';
import { StaffSessionContext } from './staff-session.context';
import { useBrowserRouter } from './use-browser-router';

export interface StaffAppProps {
  /** The shell's single-spa custom prop. */
  session: StaffSession;
  routes: RouteObject[];
}

/** Root of a staff remote: the session for its pages, and its routes on the browser history. */
export function StaffApp({ session, routes }: StaffAppProps) {
  const router = useBrowserRouter(routes);
  return (
    <StaffSessionContext.Provider value={session}>
      <Suspense fallback={<Spinner />}>
        <RouterProvider router={router} />
      </Suspense>
    </StaffSessionContext.Provider>
  );
}
