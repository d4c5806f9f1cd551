import { useCallback, useState } from 'react';

/**
 * An unexpected failure of a page's work (a load, a save), thrown again while rendering so the route's error
 * boundary shows 'Unexpected Application Error!' (spec §2) and reports it: React sees errors thrown while
 * rendering, not those of a promise or an event handler.
 */
export function useFailure(): (error: unknown) => void {
  const [failure, setFailure] = useState<{ error: unknown }>();
  if (failure) throw failure.error;
  return useCallback((error: unknown) => setFailure({ error }), []);
}
