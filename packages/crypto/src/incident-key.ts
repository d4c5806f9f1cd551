import { utf8Encode, type Bytes } from './encoding';
import { DecryptionError } from './errors';
import { encodeVersioned, parseFixedBase64Url, parseVersioned, versionOf } from './format';
import { PARAMS } from './params';
import { aesDecrypt, aesEncrypt, deriveAesKey, deriveBytes, importPrivateKeyPkcs8 } from './webcrypto';

/** An opened incident: encrypt to `publicKey`, decrypt with `privateKey` (non-extractable). */
export interface IncidentHandle {
  readonly publicKey: string;
  readonly privateKey: CryptoKey;
  /**
   * The case team's key for private notes and motivations (AES-256-GCM, non-extractable), derived from the case
   * team secret: absent for the discloser, and for a case made before team secrets (its notes go to the incident key).
   */
  readonly notesKey?: CryptoKey;
}

export interface IncidentCredential {
  public_key: string;
  aes_encrypted_private_key: string;
}

export interface StoredIncidentKeys {
  credential: IncidentCredential;
  aes_salt: string;
  aes_iv: string;
}

/**
 * Who holds the value unwrapped: the case team (the company wrapping and per-case grants carry the team secret of
 * a new case, the passphrase of an old one) or the discloser (their sealing carries the passphrase, always).
 */
export type IncidentKeyHolder = 'team' | 'discloser';

const NO_SALT = new Uint8Array(0);
const boundToCase = (info: string, incidentPublicKey: string) => `${info}\n${incidentPublicKey}`;

/** The incident passphrase of a case: HKDF of its team secret, bound to the case. One-way: it does not give T. */
export function passphraseFromTeamSecret(teamSecret: Bytes, incidentPublicKey: string): Promise<Bytes> {
  const info = boundToCase(PARAMS.teamSecret.info.incidentPassphrase, incidentPublicKey);
  return deriveBytes(teamSecret, NO_SALT, info, PARAMS.secretBytes);
}

/** The case's notes key: HKDF of its team secret under another info, bound to the case; non-extractable. */
export function notesKeyFromTeamSecret(teamSecret: Bytes, incidentPublicKey: string): Promise<CryptoKey> {
  const info = boundToCase(PARAMS.teamSecret.info.notesKey, incidentPublicKey);
  return deriveAesKey(teamSecret, NO_SALT, info, ['encrypt', 'decrypt']);
}

/**
 * The incident private key (pkcs8) sealed under the passphrase, the public key as associated data: written `v2.`,
 * which tells staff browsers the passphrase comes from a team secret.
 */
export async function sealIncidentPrivateKey(
  passphrase: Bytes,
  pkcs8: Bytes,
  publicKey: string,
  salt: Bytes,
  iv: Bytes,
): Promise<string> {
  const key = await deriveAesKey(passphrase, salt, PARAMS.info.incidentPrivateKey, ['encrypt']);
  const sealed = await aesEncrypt(key, iv, pkcs8, utf8Encode(publicKey));
  return encodeVersioned([sealed], PARAMS.teamSecret.sealedKeyVersion);
}

/**
 * Opens the sealed private key with what `holder` unwrapped. Its version says what the team holds: `v2.`, the team
 * secret (the passphrase and notes key are derived from it); `v1.`, the passphrase itself. The version is not
 * trusted: a server that relabels one as the other makes the team open it with the wrong passphrase, which AES-GCM
 * refuses (DecryptionError). The public key is the associated data: a server that swaps in a key pair of its own (to
 * read future messages) makes opening fail too. Leaves `unwrapped` to the caller.
 */
export async function openSealedPrivateKey(
  unwrapped: Bytes,
  holder: IncidentKeyHolder,
  stored: StoredIncidentKeys,
): Promise<IncidentHandle> {
  const salt = parseFixedBase64Url(stored.aes_salt, 'aes_salt', PARAMS.hkdf.saltBytes);
  const iv = parseFixedBase64Url(stored.aes_iv, 'aes_iv', PARAMS.aes.ivBytes);
  const { public_key: publicKey, aes_encrypted_private_key: sealed } = stored.credential;
  parseVersioned(publicKey, 'incident public key', [PARAMS.ecdh.publicKeyBytes]);
  const fromTeamSecret = versionOf(sealed) === PARAMS.teamSecret.sealedKeyVersion;
  const [ciphertext] = parseVersioned(
    sealed,
    'encrypted incident private key',
    [{ min: PARAMS.aes.tagBytes + 1 }],
    fromTeamSecret ? PARAMS.teamSecret.sealedKeyVersion : PARAMS.version,
  );
  const teamSecret = fromTeamSecret && holder === 'team' ? unwrapped : undefined;
  const passphrase = teamSecret ? await passphraseFromTeamSecret(teamSecret, publicKey) : unwrapped;
  let pkcs8: Bytes;
  try {
    const key = await deriveAesKey(passphrase, salt, PARAMS.info.incidentPrivateKey, ['decrypt']);
    pkcs8 = await aesDecrypt(key, iv, ciphertext, utf8Encode(publicKey));
  } finally {
    if (teamSecret) passphrase.fill(0);
  }
  let privateKey: CryptoKey;
  try {
    privateKey = await importPrivateKeyPkcs8(pkcs8);
  } catch {
    throw new DecryptionError('Decrypted incident private key is not a P-256 key');
  } finally {
    pkcs8.fill(0);
  }
  if (!teamSecret) return { publicKey, privateKey };
  return { publicKey, privateKey, notesKey: await notesKeyFromTeamSecret(teamSecret, publicKey) };
}
