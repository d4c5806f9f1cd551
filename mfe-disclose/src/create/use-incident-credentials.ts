import { useEffect, useState } from 'react';
import { createIncidentCredentials, type IncidentCredentials } from '@whistle/crypto';

/**
 * Spec §4: the incident credentials made in this browser from the company public key, which the
 * report waits for; null until they are ready, `failed` when they could not be made.
 */
export function useIncidentCredentials(publicKey: string) {
  const [result, setResult] = useState<{ credentials: IncidentCredentials | null; failed: boolean }>({
    credentials: null,
    failed: false,
  });
  useEffect(() => {
    let live = true;
    createIncidentCredentials(publicKey)
      .then((credentials) => live && setResult({ credentials, failed: false }))
      .catch(() => live && setResult({ credentials: null, failed: true }));
    return () => {
      live = false;
    };
  }, [publicKey]);
  return result;
}
