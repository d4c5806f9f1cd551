import { useEffect, useRef } from 'react';

/**
 * Asks the browser to confirm closing or reloading the tab while `active()` holds: a report being
 * written or a secret code not yet saved would be lost. Browsers show their own wording.
 */
export function useUnloadWarning(active: () => boolean) {
  const check = useRef(active);
  check.current = active;
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (check.current()) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);
}
