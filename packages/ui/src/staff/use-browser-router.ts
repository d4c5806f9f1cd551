import { useEffect, useState } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';

/** One router per mount: it listens to history until single-spa unmounts the application, then is disposed. */
export function useBrowserRouter(routes: RouteObject[]) {
  const [router] = useState(() => createBrowserRouter(routes));
  useEffect(() => () => router.dispose(), [router]);
  return router;
}
