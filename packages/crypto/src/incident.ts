import { deriveDiscloserAuthToken, generateDiscloserPassphrase, openForDiscloser, sealForDiscloser } from './discloser';
import { toBase64Url, utf8Encode, type Bytes } from './encoding';
import { DecryptionError } from './errors';
import { encodeVersioned, parseFixedBase64Url, parseVersioned } from './format';
import { PARAMS } from './params';
import { encodePublicKey, unwrapWithPrivateKey, wrapToPublicKey } from './wrap';
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

/** An opened incident: encrypt to `publicKey`, decrypt with `privateKey` (non-extractable). */
export interface IncidentHandle {
  readonly publicKey: string;
  readonly privateKey: CryptoKey;
}

export interface IncidentCredential {
  public_key: string;
  aes_encrypted_private_key: string;
}

/** The key-related fields of POST /api/incident/ (spec §3), ready to spread into the body. */
export interface IncidentCreatePayloadKeys {
  credential: IncidentCredential;
  aes_salt: string;
  aes_iv: string;
  company_encrypted_passphrase: string;
  discloser_encrypted_passphrase: string;
  discloser_auth_token: string;
}

export interface IncidentCredentials {
  /** Send to the server. Kept apart from the secrets below so a spread cannot leak them. */
  payload: IncidentCreatePayloadKeys;
  /** Shown once, inside the secret code; never sent. */
  discloserPassphrase: string;
  incident: IncidentHandle;
}

/**
 * The discloser's browser, once the company public key is known: a P-256 incident key pair (about
 * a millisecond, no RSA), a random 256-bit incident passphrase sealing its private key, that
 * passphrase wrapped to the company and sealed for the discloser, and the discloser auth token.
 */
export async function createIncidentCredentials(companyPublicKey: string): Promise<IncidentCredentials> {
  const pair = await generateExportableKeyPair();
  const publicKey = encodePublicKey(await exportPublicKeyRaw(pair.publicKey));
  const incidentPassphrase = randomBytes(PARAMS.secretBytes);
  const discloserPassphrase = generateDiscloserPassphrase();
  const salt = randomBytes(PARAMS.hkdf.saltBytes);
  const iv = randomBytes(PARAMS.aes.ivBytes);
  const pkcs8 = await exportPrivateKeyPkcs8(pair.privateKey);

  const [sealedPrivateKey, companyEncrypted, discloserEncrypted, authToken, privateKey] = await Promise.all([
    deriveAesKey(incidentPassphrase, salt, PARAMS.info.incidentPrivateKey, ['encrypt']).then((key) =>
      aesEncrypt(key, iv, pkcs8, utf8Encode(publicKey)),
    ),
    wrapToPublicKey(companyPublicKey, incidentPassphrase, 'incident-passphrase'),
    sealForDiscloser(discloserPassphrase, incidentPassphrase),
    deriveDiscloserAuthToken(discloserPassphrase),
    importPrivateKeyPkcs8(pkcs8),
  ]);
  pkcs8.fill(0);
  incidentPassphrase.fill(0);

  return {
    payload: {
      credential: { public_key: publicKey, aes_encrypted_private_key: encodeVersioned([sealedPrivateKey]) },
      aes_salt: toBase64Url(salt),
      aes_iv: toBase64Url(iv),
      company_encrypted_passphrase: companyEncrypted,
      discloser_encrypted_passphrase: discloserEncrypted,
      discloser_auth_token: authToken,
    },
    discloserPassphrase,
    incident: { publicKey, privateKey },
  };
}

interface StoredIncidentKeys {
  credential: IncidentCredential;
  aes_salt: string;
  aes_iv: string;
}

/**
 * The public key is the associated data of the sealed private key: a server that swaps in a key
 * pair of its own (to read future messages) makes opening fail instead.
 */
async function openWithIncidentPassphrase(
  incidentPassphrase: Bytes,
  stored: StoredIncidentKeys,
): Promise<IncidentHandle> {
  const salt = parseFixedBase64Url(stored.aes_salt, 'aes_salt', PARAMS.hkdf.saltBytes);
  const iv = parseFixedBase64Url(stored.aes_iv, 'aes_iv', PARAMS.aes.ivBytes);
  const { public_key: publicKey, aes_encrypted_private_key: sealed } = stored.credential;
  parseVersioned(publicKey, 'incident public key', [PARAMS.ecdh.publicKeyBytes]);
  const [ciphertext] = parseVersioned(sealed, 'encrypted incident private key', [{ min: PARAMS.aes.tagBytes + 1 }]);
  const key = await deriveAesKey(incidentPassphrase, salt, PARAMS.info.incidentPrivateKey, ['decrypt']);
  incidentPassphrase.fill(0);
  const pkcs8 = await aesDecrypt(key, iv, ciphertext, utf8Encode(publicKey));
  try {
    return { publicKey, privateKey: await importPrivateKeyPkcs8(pkcs8) };
  } catch {
    throw new DecryptionError('Decrypted incident private key is not a P-256 key');
  } finally {
    pkcs8.fill(0);
  }
}

/** Review page: open the incident with the passphrase from the secret code. */
export async function openIncidentAsDiscloser(
  input: StoredIncidentKeys & {
    discloser_encrypted_passphrase: string;
    discloserPassphrase: string;
  },
): Promise<IncidentHandle> {
  const incidentPassphrase = await openForDiscloser(input.discloserPassphrase, input.discloser_encrypted_passphrase);
  return openWithIncidentPassphrase(incidentPassphrase, input);
}

/** Staff browser: open the incident with the unlocked company private key. */
export async function openIncidentAsCompany(
  input: StoredIncidentKeys & {
    companyPrivateKey: CryptoKey;
    company_encrypted_passphrase: string;
  },
): Promise<IncidentHandle> {
  const incidentPassphrase = await unwrapWithPrivateKey(
    input.companyPrivateKey,
    input.company_encrypted_passphrase,
    'incident-passphrase',
  );
  return openWithIncidentPassphrase(incidentPassphrase, input);
}
