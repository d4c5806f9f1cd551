import type { StaffKeyring } from '@whistle/api-client';

/**
 * A staff message's signature for the discloser's page (docs/security.md, "Signed staff messages"): made with the
 * person's signing key over the case and the ciphertext. None while the keys are locked (the case would not have
 * opened then); the message is sent all the same and the discloser's page says it cannot be verified.
 */
export async function signedForDiscloser(
  keyring: StaffKeyring,
  incidentPublicKey: string,
  content: string,
): Promise<{ nonce: string; signature: string } | undefined> {
  return keyring.signForDiscloser({ incidentPublicKey, kind: 'message', ciphertexts: [content] });
}
