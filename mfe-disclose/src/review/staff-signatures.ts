import type { CompanyPublicView, IncidentFile, IncidentMessage } from '@whistle/contracts';
import {
  resolveTeamKeys,
  staffFileCiphertexts,
  verifyStaffContent,
  type SignedFileParts,
  type TeamKey,
} from '@whistle/crypto';

/** Whether a staff message is signed by the case team (docs/security.md, "Signed staff messages"). */
export type Verification = 'verified' | 'unverifiable';

/**
 * The case team as this report trusts it: the keys pinned in it at its making, and those the company's admins
 * endorsed since, reached from a pinned admin. Null for a report made before the pinning (nothing to check against).
 */
export function discloserTeam(
  pinned: readonly TeamKey[] | null,
  company: Pick<CompanyPublicView, 'company_id' | 'key_endorsements'>,
): Promise<ReadonlyMap<string, TeamKey>> | null {
  if (!pinned) return null;
  // Without the company's id no endorsement can be told to be its own: the pinned keys alone.
  return resolveTeamKeys(pinned, company.company_id ? (company.key_endorsements ?? []) : [], company.company_id ?? '');
}

/** A staff message's signature checked against the team; a discloser's own message is not checked. */
export async function verificationOf(
  team: ReadonlyMap<string, TeamKey>,
  incidentPublicKey: string,
  message: Pick<IncidentMessage, 'content' | 'sender' | 'signature'>,
): Promise<Verification | undefined> {
  if (message.sender.source !== 'STAFF') return undefined;
  const verified = await verifyStaffContent(team, {
    incidentPublicKey,
    kind: 'message',
    ciphertexts: [message.content],
    signature: message.signature ?? null,
  });
  return verified ? 'verified' : 'unverifiable';
}

/**
 * A staff file's signed parts when its signature verifies against the team (its name and a download are then
 * offered, the download checked against them); null when it does not: unsigned, by a key outside the team, or moved
 * from another file.
 */
export async function verifiedStaffFile(
  team: ReadonlyMap<string, TeamKey>,
  incidentPublicKey: string,
  file: Pick<IncidentFile, 'file_name' | 'encrypted_key' | 'content_digest' | 'signature'>,
): Promise<SignedFileParts | null> {
  if (!file.content_digest) return null;
  const signed = {
    encrypted_file_name: file.file_name,
    encrypted_key: file.encrypted_key,
    content_digest: file.content_digest,
  };
  const verified = await verifyStaffContent(team, {
    incidentPublicKey,
    kind: 'file',
    ciphertexts: staffFileCiphertexts(signed),
    signature: file.signature ?? null,
  });
  return verified ? signed : null;
}
