import { argon2id } from 'hash-wasm';
import { toBase64Url, type Bytes } from './encoding';
import { CryptoFormatError } from './errors';
import { PARAMS } from './params';
import { CURRENT_KDF, deriveStaffSecretsWith, type StaffSecrets } from './staff-secrets-core';
import { deriveAesKey, randomBytes } from './webcrypto';

export {
  CURRENT_KDF,
  deriveStaffSecretsWith,
  type KdfName,
  type StaffArgon2id,
  type StaffSecrets,
} from './staff-secrets-core';

const { kdfs, info } = PARAMS.v2;

/** A fresh per-person salt for a new password or unlock passphrase (base64url, 22 characters). */
export function newKdfSalt(): string {
  return toBase64Url(randomBytes(kdfs[CURRENT_KDF].saltBytes));
}

/** `deriveStaffSecretsWith` on hash-wasm's ES build: the server, the tests, and a page without Web Workers. */
export const deriveStaffSecrets = (password: string, salt: string, kdf: string = CURRENT_KDF): Promise<StaffSecrets> =>
  deriveStaffSecretsWith(argon2id, password, salt, kdf);

/** Is this a value `deriveStaffSecrets` made (and not, say, a password typed by a person)? */
export const isAuthSecret = (value: string) => PARAMS.v2.authSecretPattern.test(value);

/** A passkey's WebAuthn PRF output (32 bytes) → the key that opens that passkey's copy of the private keys. */
export function unlockKeyFromPrf(prfOutput: Uint8Array): Promise<CryptoKey> {
  if (prfOutput.length < 32) throw new CryptoFormatError('PRF output too short');
  return deriveAesKey(new Uint8Array(prfOutput) as Bytes, new Uint8Array(0), info.passkeyUnlockKey, [
    'encrypt',
    'decrypt',
  ]);
}
