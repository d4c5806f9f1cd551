import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Toast } from '@whistle/ui';

/** What a form page hands the page it returns to (in the navigation's state): the toast to show there. */
export interface PageToastState {
  toast?: string;
}

/**
 * The success toast of a staff page: one it shows itself (`show`), or one a form page passed along when
 * navigating back to it (spec §8 toasts such as 'Added category'); dismissing a passed one clears it from
 * the history entry, so going back and forth does not show it again.
 */
export function usePageToast(dismissLabel: string) {
  const location = useLocation();
  const navigate = useNavigate();
  const [local, setLocal] = useState<string>();
  const passed = (location.state as PageToastState | null)?.toast;
  const message = local ?? passed;
  const dismiss = () => {
    setLocal(undefined);
    if (passed) void navigate(location.pathname, { replace: true, state: null });
  };
  const toast = message ? (
    <Toast status="success" onDismiss={dismiss} dismissLabel={dismissLabel}>
      {message}
    </Toast>
  ) : null;
  return { toast, show: setLocal };
}
