import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf, isApiError } from '@whistle/api-client';

/**
 * What went wrong with a key operation, in words a person can act on. The server's refusals (a fingerprint that
 * changed, an expired request, the last way to unlock) carry their own sentence; the browser's are named by the
 * shell's keyring (its classes are not this bundle's, so by `name`).
 */
export function useKeysFailure() {
  const { t } = useTranslation('settings');
  const [message, setMessage] = useState<string>();

  function wording(error: unknown): string {
    const fields = fieldErrorsOf(error);
    const fieldMessage = fields && Object.values(fields).flat()[0];
    if (fieldMessage) return fieldMessage;
    if (isApiError(error)) return (error.body as { message?: string } | undefined)?.message ?? error.message;
    if (error instanceof Error && error.name === 'PasskeyUnavailableError') return t('keys.passkeyUnavailable');
    if (error instanceof Error && error.name === 'NotAllowedError') return t('keys.passkeyCancelled');
    if (error instanceof Error && error.name === 'PasskeyAlreadyRegisteredError') return t('keys.passkeyAlreadyHere');
    return error instanceof Error ? error.message : String(error);
  }

  /** Runs `work`; answers whether it succeeded, the failure's wording shown meanwhile. */
  async function run(work: () => Promise<unknown>): Promise<boolean> {
    setMessage(undefined);
    try {
      await work();
      return true;
    } catch (error) {
      setMessage(wording(error));
      return false;
    }
  }

  return { message, run, clear: () => setMessage(undefined) };
}
