import {
  getTeamKeys,
  type ApiClient,
  type CaseGrantInput,
  type KeyRecipient,
  type StaffKeyring,
} from '@whistle/api-client';
import type { IncidentKeyMaterial, TeamKeysResponse } from '@whistle/contracts';
import { useLoad } from '@whistle/ui';

/** The team's keys (public keys and fingerprints), undefined while unknown or when the list cannot be had. */
export function useTeamKeys(api: ApiClient): TeamKeysResponse | undefined {
  return useLoad(() => getTeamKeys(api), [api], { shows: () => true }).data;
}

/**
 * Who has no keys yet (an invitation not taken up, keys never made): nothing can be wrapped to them, so a case
 * assigned to them is one they cannot open; the pickers warn of it.
 */
export function peopleWithoutKeys(team: TeamKeysResponse | undefined): ReadonlySet<string> {
  return new Set(team?.people.filter((person) => person.public_key === null).map((person) => person.user_id));
}

/**
 * The grants to send with an assignment (docs/security.md, "Per-case grants"): the case's passphrase, checked against
 * the case, wrapped to each assignee with keys — those the page shows, each checked by the keyring against the
 * fingerprint shown. None when this person holds nothing that opens the case (they assign; an admin grants): the
 * company key, or for a case no company key wraps (its discloser kept an admin out), their own grant of it.
 */
export async function grantsFor(
  keyring: StaffKeyring,
  keys: IncidentKeyMaterial,
  team: TeamKeysResponse | undefined,
  assignees: readonly string[],
): Promise<CaseGrantInput[]> {
  const recipients: KeyRecipient[] = (team?.people ?? []).flatMap((person) =>
    assignees.includes(person.user_id) && person.public_key && person.signing_public_key && person.fingerprint
      ? [
          {
            userId: person.user_id,
            publicKey: person.public_key,
            signingPublicKey: person.signing_public_key,
            fingerprint: person.fingerprint,
          },
        ]
      : [],
  );
  // The company key opens the case's company wrapping; a case without one opens only with one's own grant.
  const canGrant = keys.company_encrypted_passphrase === null ? !!keys.my_grant : !!keyring.workerMaterial();
  if (recipients.length === 0 || !canGrant) return [];
  return keyring.grantCase(keys, recipients);
}
