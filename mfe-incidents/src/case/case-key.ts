import { NoCaseAccessError } from '@whistle/api-client';
import type { IncidentKeyMaterial } from '@whistle/contracts';
import { decryptContent, openIncidentAsCompany, type IncidentHandle } from '@whistle/crypto';

/**
 * Opens a case with the company private key (from the shell's keyring: granted to the person, never extractable) —
 * or, while a company key rotation re-wraps the cases, with the previous one if that still wraps it.
 */
export async function openCase(
  keys: IncidentKeyMaterial,
  companyPrivateKey: CryptoKey,
  previousCompanyPrivateKey?: CryptoKey,
): Promise<IncidentHandle> {
  // No company wrapping: its discloser kept an admin out, so the company key opens nothing of it.
  if (keys.company_encrypted_passphrase === null) throw new NoCaseAccessError();
  return openIncidentAsCompany({
    ...keys,
    company_encrypted_passphrase: keys.company_encrypted_passphrase,
    companyPrivateKey,
    ...(previousCompanyPrivateKey ? { previousCompanyPrivateKey } : {}),
  });
}

/** What the Identity column shows (spec §9): Anonymous, the full name when given, or Identified. */
export type Identity = { kind: 'anonymous' } | { kind: 'named'; name: string } | { kind: 'identified' };

/**
 * A case's identity, decrypted here with the company key: an anonymous report is Anonymous whatever it
 * holds; a name that does not open as the report's full_name reads as Identified (the report is not anonymous), never as an error.
 */
export function identityOf(
  item: { report_anonymously: boolean; full_name: string | null; keys: IncidentKeyMaterial },
  companyPrivateKey: CryptoKey,
  previousCompanyPrivateKey?: CryptoKey,
): Promise<Identity> {
  return identityThrough(item, (keys) => openCase(keys, companyPrivateKey, previousCompanyPrivateKey));
}

/** identityOf, the case opened by `open` (the keyring: the person's own grant, or the company key). */
export async function identityThrough(
  item: { report_anonymously: boolean; full_name: string | null; keys: IncidentKeyMaterial },
  open: (keys: IncidentKeyMaterial) => Promise<IncidentHandle>,
): Promise<Identity> {
  if (item.report_anonymously) return { kind: 'anonymous' };
  if (!item.full_name) return { kind: 'identified' };
  try {
    const handle = await open(item.keys);
    const name = (await decryptContent(handle, item.full_name, { kind: 'field', name: 'full_name' })).trim();
    return name ? { kind: 'named', name } : { kind: 'identified' };
  } catch {
    return { kind: 'identified' };
  }
}
