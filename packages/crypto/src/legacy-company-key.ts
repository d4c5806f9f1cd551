import { fromBase64Url, toBase64Url, type Bytes } from './encoding';
import { CryptoFormatError, DecryptionError } from './errors';
import { encodeVersioned, parseVersioned } from './format';
import { PARAMS } from './params';
import { encodePublicKey } from './wrap';
import {
  aesDecrypt,
  aesEncrypt,
  deriveAesKey,
  exportPrivateKeyPkcs8,
  exportPublicKeyRaw,
  generateExportableKeyPair,
  importPrivateKeyPkcs8,
  randomBytes,
} from './webcrypto';

/** The crypto part of POST /api/account/company, shaped like the payload so it can be spread in. */
export interface CompanyCredentials {
  credential: { public_key: string; aes_encrypted_private_key: string };
  /** Random 256-bit secret (base64url, 43 chars). The server keeps it envelope-encrypted. */
  passphrase: string;
}

/**
 * Onboarding until people held keys (v1), in the admin's browser: a P-256 key pair whose private key (pkcs8) is sealed with
 * AES-256-GCM under HKDF(passphrase, random salt). Output `v1.<salt>.<iv>.<ciphertext+tag>`.
 */
export async function createCompanyCredentials(): Promise<CompanyCredentials> {
  const pair = await generateExportableKeyPair();
  const passphrase = randomBytes(PARAMS.secretBytes);
  const salt = randomBytes(PARAMS.hkdf.saltBytes);
  const iv = randomBytes(PARAMS.aes.ivBytes);
  const key = await deriveAesKey(passphrase, salt, PARAMS.info.companyPrivateKey, ['encrypt']);
  const pkcs8 = await exportPrivateKeyPkcs8(pair.privateKey);
  const sealed = await aesEncrypt(key, iv, pkcs8);
  pkcs8.fill(0);
  return {
    credential: {
      public_key: encodePublicKey(await exportPublicKeyRaw(pair.publicKey)),
      aes_encrypted_private_key: encodeVersioned([salt, iv, sealed]),
    },
    passphrase: toBase64Url(passphrase),
  };
}

/** Staff browser: the company private key (non-extractable) from its sealed form and passphrase. */
export async function unlockCompanyPrivateKey(input: LegacyCompanyKeys): Promise<CryptoKey> {
  const pkcs8 = await openLegacyCompanySecret(input);
  try {
    return await importPrivateKeyPkcs8(pkcs8);
  } catch {
    throw new DecryptionError('Decrypted company private key is not a P-256 key');
  } finally {
    pkcs8.fill(0);
  }
}

/** What a company made before people held keys has: its private key sealed under a passphrase the server kept. */
export interface LegacyCompanyKeys {
  aes_encrypted_private_key: string;
  passphrase: string;
}

/**
 * The company private key's bytes, for the one migration that re-wraps a legacy company key to its first admin
 * and to a recovery kit (docs/security.md, "Migration").
 */
export async function openLegacyCompanySecret(input: LegacyCompanyKeys): Promise<Bytes> {
  let secret: Bytes;
  try {
    secret = fromBase64Url(input.passphrase);
  } catch {
    throw new CryptoFormatError('Malformed company passphrase');
  }
  if (secret.length !== PARAMS.secretBytes) throw new CryptoFormatError('Malformed company passphrase');
  const [salt, iv, sealed] = parseVersioned(input.aes_encrypted_private_key, 'encrypted company private key', [
    PARAMS.hkdf.saltBytes,
    PARAMS.aes.ivBytes,
    { min: PARAMS.aes.tagBytes + 1 },
  ]);
  const key = await deriveAesKey(secret, salt, PARAMS.info.companyPrivateKey, ['decrypt']);
  return aesDecrypt(key, iv, sealed);
}
