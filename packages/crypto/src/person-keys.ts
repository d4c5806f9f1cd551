import { concatBytes, utf8Encode, type Bytes } from './encoding';
import { CryptoFormatError, DecryptionError } from './errors';
import { encodeVersioned, parseVersioned } from './format';
import { fingerprintOf } from './fingerprint';
import { PARAMS } from './params';
import { constantTimeEqual } from './compare';
import { encodePublicKey } from './wrap';
import {
  aesDecrypt,
  aesEncrypt,
  exportPrivateKeyPkcs8,
  exportPublicKeyRaw,
  generateExportableKeyPair,
  generateExportableSigningKeyPair,
  importPrivateKeyPkcs8,
  importSigningKeyPkcs8,
  publicPointOfPkcs8,
  randomBytes,
} from './webcrypto';

/** A person's public keys, as the team sees them: one to wrap keys to, one to check their signatures. */
export interface PersonPublicKeys {
  /** ECDH P-256, `v1.<point>` */
  public_key: string;
  /** ECDSA P-256, `v1.<point>` */
  signing_public_key: string;
}

/** A person's keys once unlocked in their browser: usable, never extractable. */
export interface PersonKeys {
  readonly publicKeys: PersonPublicKeys;
  /** ECDH: opens what was wrapped to `public_key` (company key grants, case grants). */
  readonly decryptionKey: CryptoKey;
  /** ECDSA: signs what this person sends. */
  readonly signingKey: CryptoKey;
}

/**
 * Both private keys as bytes (two pkcs8 with a length prefix), between their making (or opening) and their
 * sealing under an unlock key. Callers wipe it (`fill(0)`) once sealed.
 */
export type PersonSecret = Bytes;

/** A new pair of key pairs, made in the person's browser at onboarding, invitation or first SSO sign-in. */
export async function createPersonKeys(): Promise<{ publicKeys: PersonPublicKeys; secret: PersonSecret }> {
  const [decryption, signing] = await Promise.all([generateExportableKeyPair(), generateExportableSigningKeyPair()]);
  const [ecdhPkcs8, ecdsaPkcs8, ecdhPublic, ecdsaPublic] = await Promise.all([
    exportPrivateKeyPkcs8(decryption.privateKey),
    exportPrivateKeyPkcs8(signing.privateKey),
    exportPublicKeyRaw(decryption.publicKey),
    exportPublicKeyRaw(signing.publicKey),
  ]);
  const length = new Uint8Array([ecdhPkcs8.length >> 8, ecdhPkcs8.length & 255]);
  const secret = concatBytes(length, ecdhPkcs8, ecdsaPkcs8);
  ecdhPkcs8.fill(0);
  ecdsaPkcs8.fill(0);
  return {
    publicKeys: { public_key: encodePublicKey(ecdhPublic), signing_public_key: encodePublicKey(ecdsaPublic) },
    secret,
  };
}

/** The associated data of a sealed copy: the public keys it belongs to, so a server cannot pair it with others. */
const personKeysContext = (publicKeys: PersonPublicKeys) =>
  utf8Encode(`${PARAMS.v2.info.personKeys}\n${publicKeys.public_key}\n${publicKeys.signing_public_key}`);

/**
 * One sealed copy of the private keys, under one unlock key (from the password, a passkey's PRF or an unlock
 * passphrase). Output `v2.<iv>.<ciphertext+tag>`; the server stores it and cannot open it.
 */
export async function sealPersonSecret(
  unlockKey: CryptoKey,
  secret: PersonSecret,
  publicKeys: PersonPublicKeys,
): Promise<string> {
  const iv = randomBytes(PARAMS.aes.ivBytes);
  const sealed = await aesEncrypt(unlockKey, iv, secret, personKeysContext(publicKeys));
  return encodeVersioned([iv, sealed], PARAMS.v2.version);
}

/** Opens a sealed copy: a wrong unlock key, other public keys or an altered byte is a DecryptionError. */
export async function openPersonSecret(
  unlockKey: CryptoKey,
  sealed: string,
  publicKeys: PersonPublicKeys,
): Promise<PersonSecret> {
  const [iv, ciphertext] = parseVersioned(
    sealed,
    'sealed private keys',
    [PARAMS.aes.ivBytes, { min: PARAMS.aes.tagBytes + 3 }],
    PARAMS.v2.version,
  );
  return aesDecrypt(unlockKey, iv, ciphertext, personKeysContext(publicKeys));
}

/**
 * The same private keys sealed again under another unlock key (a new password, or the same one with a newer kdf):
 * opened with `fromKey` (a wrong key is a DecryptionError), sealed under `toKey`, the plain bytes zeroed.
 */
export async function resealPersonSecret(
  fromKey: CryptoKey,
  sealed: string,
  publicKeys: PersonPublicKeys,
  toKey: CryptoKey,
): Promise<string> {
  const secret = await openPersonSecret(fromKey, sealed, publicKeys);
  try {
    return await sealPersonSecret(toKey, secret, publicKeys);
  } finally {
    secret.fill(0);
  }
}

/** The usable (non-extractable) keys of a secret, after checking each private key matches its public key. */
export async function importPersonKeys(secret: PersonSecret, publicKeys: PersonPublicKeys): Promise<PersonKeys> {
  if (secret.length < 3) throw new CryptoFormatError('Malformed person keys');
  const ecdhLength = (secret[0] << 8) | secret[1];
  const ecdhPkcs8 = secret.slice(2, 2 + ecdhLength);
  const ecdsaPkcs8 = secret.slice(2 + ecdhLength);
  try {
    const [ecdhPoint, ecdsaPoint] = await Promise.all([
      publicPointOfPkcs8(ecdhPkcs8, 'ECDH'),
      publicPointOfPkcs8(ecdsaPkcs8, 'ECDSA'),
    ]);
    const [expectedEcdh] = parseVersioned(publicKeys.public_key, 'public key', [PARAMS.ecdh.publicKeyBytes]);
    const [expectedEcdsa] = parseVersioned(publicKeys.signing_public_key, 'signing public key', [
      PARAMS.ecdh.publicKeyBytes,
    ]);
    if (!constantTimeEqual(ecdhPoint, expectedEcdh) || !constantTimeEqual(ecdsaPoint, expectedEcdsa))
      throw new DecryptionError('The private keys do not belong to these public keys');
    const [decryptionKey, signingKey] = await Promise.all([
      importPrivateKeyPkcs8(ecdhPkcs8),
      importSigningKeyPkcs8(ecdsaPkcs8),
    ]);
    return { publicKeys, decryptionKey, signingKey };
  } finally {
    ecdhPkcs8.fill(0);
    ecdsaPkcs8.fill(0);
  }
}

/** Opens a sealed copy and imports it: what the browser does at each sign-in or unlock. */
export async function unlockPersonKeys(
  unlockKey: CryptoKey,
  sealed: string,
  publicKeys: PersonPublicKeys,
): Promise<PersonKeys> {
  const secret = await openPersonSecret(unlockKey, sealed, publicKeys);
  try {
    return await importPersonKeys(secret, publicKeys);
  } finally {
    secret.fill(0);
  }
}

/** The fingerprint of a person's keys, as the team page and approval dialogs show it. */
export const personFingerprint = (publicKeys: PersonPublicKeys) =>
  fingerprintOf(publicKeys.public_key, publicKeys.signing_public_key);
