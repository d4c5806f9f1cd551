import type { CompanyPublicView } from '@whistle/contracts';
import { createIncidentCredentials } from '@whistle/crypto';
import { useLoad } from '@whistle/ui';
import { recipientKeysOf } from './submit-report';

/**
 * Spec §4: the incident credentials made in this browser from the company public key, which the
 * report waits for; null until they are ready, `failed` when they could not be made. The passphrase is wrapped
 * too to each default assignee's and admin's key the view lists (the report sends only the grants it needs).
 */
export function useIncidentCredentials(
  company: Pick<CompanyPublicView, 'public_key' | 'categories'> & Partial<Pick<CompanyPublicView, 'every_case_keys'>>,
) {
  const recipients = recipientKeysOf(company);
  const recipientIds = recipients.map((key) => key.key_id).join();
  // A failure is the page's to say ('could not prepare'): the form stays, its submit disabled.
  const { data, error } = useLoad(
    () => createIncidentCredentials(company.public_key, recipients),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the same keys (by id) make the same credentials
    [company.public_key, recipientIds],
    { shows: () => true },
  );
  return { credentials: data ?? null, failed: error !== undefined };
}
