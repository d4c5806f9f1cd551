import { createContext, useContext, useEffect, useState } from 'react';
import type { StaffSession, StaffState } from '@whistle/api-client';

/** The shell's staff session, received as the single-spa custom prop `session`. */
export const SessionContext = createContext<StaffSession | undefined>(undefined);

/**
 * Profile and company of the signed-in user; undefined while loading. A failed load is the shell's
 * route guard's business (it sends the user to login), so it is not an error here.
 */
export function useStaffState(): StaffState | undefined {
  const session = useContext(SessionContext);
  if (!session) throw new Error('mfe-incidents is mounted without the shell’s staff session');
  const [state, setState] = useState<StaffState>();
  useEffect(() => {
    let current = true;
    session.staff().then(
      (loaded) => current && setState(loaded),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [session]);
  return state;
}
