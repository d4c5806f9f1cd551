import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { isApiError } from '@whistle/api-client';
import { Toast } from '@whistle/ui';

/** Per-field messages of a 400 answer, or undefined for any other failure. */
export const fieldErrors = (error: unknown): Record<string, string[]> | undefined =>
  isApiError(error) && error.status === 400
    ? (error.body as { errors?: Record<string, string[]> } | undefined)?.errors
    : undefined;

/** What a form page hands the list it returns to: the toast to show there. */
export interface ToastState {
  toast?: string;
}

/**
 * The success toast of a settings page: one it shows itself (`show`), or one a form page passed along
 * when navigating back to it (spec §8 toasts such as 'Added category').
 */
export function useSettingsToast() {
  const { t } = useTranslation('settings');
  const location = useLocation();
  const navigate = useNavigate();
  const [local, setLocal] = useState<string>();
  const passed = (location.state as ToastState | null)?.toast;
  const message = local ?? passed;
  const dismiss = () => {
    setLocal(undefined);
    if (passed) void navigate(location.pathname, { replace: true, state: null });
  };
  const toast = message ? (
    <Toast status="success" onDismiss={dismiss} dismissLabel={t('dismiss')}>
      {message}
    </Toast>
  ) : null;
  return { toast, show: setLocal };
}
