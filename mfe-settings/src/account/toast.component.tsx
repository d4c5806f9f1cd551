import { useEffect } from 'react';

/** Spec §4/§9: success toasts vanish after 5 seconds. */
export const TOAST_LIFETIME_MS = 5000;

export function Toast({ message, onExpire }: { message: string; onExpire: () => void }) {
  useEffect(() => {
    const timer = window.setTimeout(onExpire, TOAST_LIFETIME_MS);
    return () => window.clearTimeout(timer);
  }, [message, onExpire]);
  return <p className="mfe-toast" role="status">{message}</p>;
}
