import { useEffect, useEffectEvent, type ReactNode } from 'react';
import './toast.css';

/** Spec §9: success toasts vanish after 5 seconds; error toasts stay until dismissed. */
export const TOAST_LIFETIME_MS = 5000;

export interface ToastProps {
  status: 'success' | 'error';
  children: ReactNode;
  /** Called when a success toast expires or when the close button is pressed. */
  onDismiss: () => void;
  /** Accessible name of the close button, translated by the caller. */
  dismissLabel: string;
}

/** A short notice in a live region, so screen readers announce it without moving focus. */
export function Toast({ status, children, onDismiss, dismissLabel }: ToastProps) {
  // The latest callback is used without restarting the timer when the caller re-renders.
  const expire = useEffectEvent(onDismiss);
  useEffect(() => {
    if (status !== 'success') return undefined;
    const timer = setTimeout(() => expire(), TOAST_LIFETIME_MS);
    return () => clearTimeout(timer);
  }, [status]);
  return (
    <div className={`wh-toast wh-toast--${status}`} role={status === 'error' ? 'alert' : 'status'}>
      <span className="wh-toast__text">{children}</span>
      <button type="button" className="wh-toast__close" aria-label={dismissLabel} onClick={onDismiss}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
