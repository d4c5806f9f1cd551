import { createContext, useContext, useEffect, useState } from 'react';
import type { StaffSession, StaffState } from '@whistle/api-client';

/** The shell's staff session, received as the single-spa custom prop `session`. */
export const SessionContext = createContext<StaffSession | undefined>(undefined);

export function useSession(): StaffSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error('mfe-settings is mounted without the shell’s staff session');
  return session;
}

/**
 * Profile and company of the signed-in user; undefined while loading. A failed load is the shell's
 * route guard's business (it sends the user to login), so it is not an error here.
 */
export function useStaffState(): StaffState | undefined {
  const session = useSession();
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
