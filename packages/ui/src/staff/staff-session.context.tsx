import { createContext, useContext, useEffect, useState } from 'react';
import type { StaffSession, StaffState } from '@whistle/api-client';

/**
 * The shell's staff session (token, profile and company, the company key in memory), which a
 * staff remote receives as the single-spa custom prop `session`. Remotes never read storage.
 */
export const StaffSessionContext = createContext<StaffSession | undefined>(undefined);

/** The staff session: its `api` client sends the signed-in user's token. */
export function useStaffSession(): StaffSession {
  const session = useContext(StaffSessionContext);
  if (!session) throw new Error('A staff page is mounted without the shell’s staff session');
  return session;
}

/**
 * Profile and company of the signed-in user, following reloads (a saved name); undefined while
 * loading. A failed load is the shell's route guard's business (it sends the user to login), so it
 * is not an error here.
 */
export function useStaffState(): StaffState | undefined {
  const session = useStaffSession();
  const [state, setState] = useState<StaffState>();
  useEffect(() => {
    let current = true;
    session.staff().then(
      (loaded) => current && setState(loaded),
      () => undefined,
    );
    const unsubscribe = session.subscribe(setState);
    return () => {
      current = false;
      unsubscribe();
    };
  }, [session]);
  return state;
}
