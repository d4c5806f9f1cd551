import type { UnlockMethodInput } from '@whistle/contracts';
import { createPasskey } from './passkeys';
import { deriveStaffSecrets } from './staff-secrets';

/** A new way to unlock a person's keys: the key it gives, and the method to store once the keys are sealed under it. */
export interface NewUnlock {
  key: CryptoKey;
  method(sealed: string): UnlockMethodInput;
}

/**
 * A passkey registered now (WebAuthn PRF): its PRF output is the unlock key; the server keeps its id and salt.
 * `existing` are the ids of the person's passkeys, which the authenticator must not replace.
 */
export async function newPasskeyUnlock(
  person: { userId: string; email: string; fullName: string },
  label: string,
  existing: readonly string[] = [],
): Promise<NewUnlock> {
  const passkey = await createPasskey({ id: person.userId, email: person.email, name: person.fullName }, existing);
  const { unlockKeyFromPrf } = await import('@whistle/crypto');
  return {
    key: await unlockKeyFromPrf(passkey.prfOutput),
    method: (sealed) => ({
      method: 'passkey',
      credential_id: passkey.credentialId,
      prf_salt: passkey.prfSalt,
      label,
      sealed_private_keys: sealed,
    }),
  };
}

/** An unlock passphrase, derived like a password (Argon2id) with a salt of its own. */
export async function newPassphraseUnlock(passphrase: string): Promise<NewUnlock> {
  const { CURRENT_KDF, newKdfSalt } = await import('@whistle/crypto');
  const kdfSalt = newKdfSalt();
  const { unlockKey } = await deriveStaffSecrets(passphrase, kdfSalt, CURRENT_KDF);
  return {
    key: unlockKey,
    method: (sealed) => ({ method: 'passphrase', kdf: CURRENT_KDF, kdf_salt: kdfSalt, sealed_private_keys: sealed }),
  };
}
