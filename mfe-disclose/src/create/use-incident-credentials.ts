import type { CompanyPublicView } from '@whistle/contracts';
import { createIncidentCredentials } from '@whistle/crypto';
import { useLoad } from '@whistle/ui';
import { recipientKeysOf, teamKeysOf } from './submit-report';

/**
 * Spec §4: the incident credentials made in this browser from the company public key, which the
 * report waits for; null until they are ready, `failed` when they could not be made. The passphrase is wrapped
 * too to each default assignee's and admin's key the view lists (the report sends only the grants it needs), and the
 * team's signing keys are pinned in it for the discloser (teamKeysOf).
 */
export function useIncidentCredentials(
  company: Pick<CompanyPublicView, 'public_key' | 'categories'> & Partial<Pick<CompanyPublicView, 'every_case_keys'>>,
) {
  const recipients = recipientKeysOf(company);
  const teamKeys = teamKeysOf(company);
  // The same keys (by id, and the signing keys pinned) make the same credentials.
  const recipientIds = [
    ...recipients.map((key) => key.key_id),
    ...teamKeys.map((key) => key.signing_public_key),
  ].join();
  // A failure is the page's to say ('could not prepare'): the form stays, its submit disabled.
  const { data, error } = useLoad(
    // A view that lists no signing key (a server from before) pins nothing: the report is made as before.
    () => createIncidentCredentials(company.public_key, recipients, teamKeys.length > 0 ? teamKeys : undefined),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the same keys make the same credentials
    [company.public_key, recipientIds],
    { shows: () => true },
  );
  return { credentials: data ?? null, failed: error !== undefined };
}
