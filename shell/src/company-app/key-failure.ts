import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasskeyUnavailableError } from '../session/passkeys';

/** What went wrong, in words a person can act on (a wrong password, a passkey the browser cannot use). */
export function useKeyFailure() {
  const { t } = useTranslation('shell');
  const [message, setMessage] = useState<string>();
  const run = async (work: () => Promise<void>) => {
    setMessage(undefined);
    try {
      await work();
    } catch (error) {
      if (error instanceof PasskeyUnavailableError) setMessage(t('keys.passkeyUnavailable'));
      else if (error instanceof Error && error.name === 'DecryptionError') setMessage(t('keys.wrongSecret'));
      else if (error instanceof Error && error.name === 'CryptoFormatError') setMessage(t('keys.malformedKit'));
      else if (error instanceof Error && error.name === 'NotAllowedError') setMessage(t('keys.passkeyCancelled'));
      else if (error instanceof Error && 'status' in error)
        setMessage((error as { body?: { message?: string } }).body?.message ?? error.message);
      else setMessage(error instanceof Error ? error.message : String(error));
    }
  };
  return { message, run };
}
