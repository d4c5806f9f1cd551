import { constantTimeEqual } from './compare';
import { utf8Encode, type Bytes } from './encoding';
import { DecryptionError } from './errors';
import { encodeVersioned, parseVersioned } from './format';
import { fingerprintOf } from './fingerprint';
import { PARAMS } from './params';
import type { PersonKeys } from './person-keys';
import type { RecoveryKey } from './recovery-key';
import { encodePublicKey, unwrapBound, wrapBound } from './wrap';
import {
  aesDecrypt,
  aesEncrypt,
  deriveAesKey,
  exportPrivateKeyPkcs8,
  exportPublicKeyRaw,
  generateExportableKeyPair,
  importPrivateKeyPkcs8,
  publicPointOfPkcs8,
  randomBytes,
} from './webcrypto';

/**
 * The company private key as bytes (pkcs8), only while a browser wraps it to someone: an admin, the recovery kit.
 * Callers wipe it (`fill(0)`) when done.
 */
export type CompanySecret = Bytes;

/** A new company key pair, made in an admin's browser at onboarding or rotation. */
export async function createCompanyKeyPair(): Promise<{ public_key: string; secret: CompanySecret }> {
  const pair = await generateExportableKeyPair();
  return {
    public_key: encodePublicKey(await exportPublicKeyRaw(pair.publicKey)),
    secret: await exportPrivateKeyPkcs8(pair.privateKey),
  };
}

const grantContext = (companyPublicKey: string, recipientPublicKey: string) =>
  `company-key\n${companyPublicKey}\n${recipientPublicKey}`;

/** A grant: the company private key wrapped to one person's public key, bound to both keys. */
export function grantCompanyKey(
  secret: CompanySecret,
  companyPublicKey: string,
  recipientPublicKey: string,
): Promise<string> {
  return wrapBound(recipientPublicKey, secret, 'company-key', grantContext(companyPublicKey, recipientPublicKey));
}

/**
 * Opens one's own grant. The key inside must be the private half of `companyPublicKey`: a server handing out a key
 * pair of its own (to read what is wrapped to it later) is caught here, not trusted.
 */
export async function openCompanyKeyGrant(
  person: PersonKeys,
  grant: string,
  companyPublicKey: string,
): Promise<CompanySecret> {
  const secret = await unwrapBound(
    person.decryptionKey,
    grant,
    'company-key',
    grantContext(companyPublicKey, person.publicKeys.public_key),
  );
  await assertBelongsTo(secret, companyPublicKey);
  return secret;
}

async function assertBelongsTo(secret: CompanySecret, companyPublicKey: string): Promise<void> {
  const [expected] = parseVersioned(companyPublicKey, 'company public key', [PARAMS.ecdh.publicKeyBytes]);
  if (!constantTimeEqual(await publicPointOfPkcs8(secret, 'ECDH'), expected)) {
    secret.fill(0);
    throw new DecryptionError('The company key does not match its public key');
  }
}

/** The usable (non-extractable) company private key. */
export function importCompanyPrivateKey(secret: CompanySecret): Promise<CryptoKey> {
  return importPrivateKeyPkcs8(secret);
}

/**
 * The recovery kit's copy: the company private key under AES-256-GCM, key = HKDF(recovery key, random salt), the
 * company public key as associated data. Output `v2.<salt>.<iv>.<ciphertext+tag>` (the company's
 * `aes_encrypted_private_key`).
 */
export async function sealCompanyKeyForRecovery(
  recovery: RecoveryKey,
  secret: CompanySecret,
  companyPublicKey: string,
): Promise<string> {
  const salt = randomBytes(PARAMS.hkdf.saltBytes);
  const iv = randomBytes(PARAMS.aes.ivBytes);
  const key = await deriveAesKey(recovery.key, salt, PARAMS.v2.info.recovery, ['encrypt']);
  const sealed = await aesEncrypt(key, iv, secret, utf8Encode(companyPublicKey));
  return encodeVersioned([salt, iv, sealed], PARAMS.v2.version);
}

/** Opens the recovery kit's copy: a recovery key of another company or an older kit is a DecryptionError. */
export async function openCompanyKeyWithRecovery(
  recovery: RecoveryKey,
  sealed: string,
  companyPublicKey: string,
): Promise<CompanySecret> {
  const [salt, iv, ciphertext] = parseVersioned(
    sealed,
    'recovery copy of the company key',
    [PARAMS.hkdf.saltBytes, PARAMS.aes.ivBytes, { min: PARAMS.aes.tagBytes + 1 }],
    PARAMS.v2.version,
  );
  const key = await deriveAesKey(recovery.key, salt, PARAMS.v2.info.recovery, ['decrypt']);
  const secret = await aesDecrypt(key, iv, ciphertext, utf8Encode(companyPublicKey));
  await assertBelongsTo(secret, companyPublicKey);
  return secret;
}

/** The company key's fingerprint, as the recovery kit, the team page and the discloser's landing page show it. */
export const companyFingerprint = (companyPublicKey: string) => fingerprintOf(companyPublicKey);
