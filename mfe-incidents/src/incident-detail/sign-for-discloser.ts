import type { StaffKeyring } from '@whistle/api-client';
import { staffFileCiphertexts } from '@whistle/crypto';
import type { FileSigner, PostedMessage } from '@whistle/ui/report';

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

/**
 * Signs the files of a reply as the reply was: with the same key, named by the id the incident service gave the
 * reply's signature (the sender's current key; the file service has no list of keys to look it up in). A reply that
 * went unsigned sends its files unsigned too: the discloser's page then says they cannot be verified.
 */
export function fileSignerForDiscloser(
  keyring: StaffKeyring,
  incidentPublicKey: string,
  reply: PostedMessage,
): FileSigner | undefined {
  const signerKeyId = reply.signature?.signer_key_id;
  if (!signerKeyId) return undefined;
  return async (file) => {
    const signed = await keyring.signForDiscloser({
      incidentPublicKey,
      kind: 'file',
      ciphertexts: staffFileCiphertexts(file),
    });
    return signed && { signature: signed.signature, signature_nonce: signed.nonce, signer_key_id: signerKeyId };
  };
}
