import { useEffect, useEffectEvent } from 'react';

/**
 * Asks the browser to confirm closing or reloading the tab while `active()` holds: a report being
 * written or a secret code not yet saved would be lost. Browsers show their own wording.
 */
export function useUnloadWarning(active: () => boolean) {
  // The latest `active` is read when the browser asks, without re-registering the listener.
  const isActive = useEffectEvent(active);
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (isActive()) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);
}
