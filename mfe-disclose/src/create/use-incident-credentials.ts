import { createIncidentCredentials } from '@whistle/crypto';
import { useLoad } from '@whistle/ui';

/**
 * Spec §4: the incident credentials made in this browser from the company public key, which the
 * report waits for; null until they are ready, `failed` when they could not be made.
 */
export function useIncidentCredentials(publicKey: string) {
  // A failure is the page's to say ('could not prepare'): the form stays, its submit disabled.
  const { data, error } = useLoad(() => createIncidentCredentials(publicKey), [publicKey], { shows: () => true });
  return { credentials: data ?? null, failed: error !== undefined };
}
