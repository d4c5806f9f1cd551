import { utf8Encode, type Bytes } from './encoding';
import { DecryptionError } from './errors';
import { encodeVersioned, parseVersioned, type FormatVersion } from './format';
import { PARAMS } from './params';
import {
  aesDecrypt,
  aesEncrypt,
  deriveAesKey,
  ecdhSharedSecret,
  exportPublicKeyRaw,
  generateEphemeralKeyPair,
  importPublicKeyRaw,
  randomBytes,
} from './webcrypto';

/**
 * What a wrapped value is for. It goes into the HKDF info, so a value wrapped for one purpose
 * (say a message) cannot be replayed by the server as another (say an incident passphrase).
 */
export type WrapPurpose = 'incident-passphrase' | 'content' | 'file-key';

/** `v1.<raw uncompressed P-256 point>`: 65 bytes, 87 characters. */
export function encodePublicKey(raw: Bytes): string {
  return encodeVersioned([raw]);
}

/** Parses and validates (point on the curve) a public key string. */
export async function importPublicKey(publicKey: string): Promise<CryptoKey> {
  const [raw] = parseVersioned(publicKey, 'public key', [PARAMS.ecdh.publicKeyBytes]);
  return importPublicKeyRaw(raw);
}

/**
 * What a v2 wrapped value is for. Besides the purpose in the HKDF info, a v2 value carries its context
 * (whose key, to whom) as associated data: moved to another row, it no longer opens.
 */
export type BoundPurpose = 'company-key' | 'incident-passphrase' | 'content' | 'file-key';

/**
 * ECIES to a public key: ephemeral ECDH P-256 → HKDF-SHA-256 (salt = ephemeral public key,
 * info = purpose) → AES-256-GCM. Output `v1.<ephemeral public key>.<iv>.<ciphertext+tag>`.
 */
export function wrapToPublicKey(publicKey: string, plaintext: Bytes, purpose: WrapPurpose): Promise<string> {
  return wrap(publicKey, plaintext, PARAMS.info.wrap + purpose, PARAMS.version);
}

/** Reverses wrapToPublicKey; a wrong key, purpose or any altered byte is a DecryptionError. */
export function unwrapWithPrivateKey(privateKey: CryptoKey, wrapped: string, purpose: WrapPurpose): Promise<Bytes> {
  return unwrap(privateKey, wrapped, PARAMS.info.wrap + purpose, PARAMS.version);
}

/** The v2 wrap: as v1, with `context` (who and what the value belongs to) as AES-GCM associated data. */
export function wrapBound(
  publicKey: string,
  plaintext: Bytes,
  purpose: BoundPurpose,
  context: string,
): Promise<string> {
  return wrap(publicKey, plaintext, PARAMS.v2.info.wrap + purpose, PARAMS.v2.version, utf8Encode(context));
}

/** Reverses wrapBound: a value wrapped for another context, purpose or key is a DecryptionError. */
export function unwrapBound(
  privateKey: CryptoKey,
  wrapped: string,
  purpose: BoundPurpose,
  context: string,
): Promise<Bytes> {
  return unwrap(privateKey, wrapped, PARAMS.v2.info.wrap + purpose, PARAMS.v2.version, utf8Encode(context));
}

async function wrap(
  publicKey: string,
  plaintext: Bytes,
  info: string,
  version: FormatVersion,
  additionalData?: Bytes,
): Promise<string> {
  const recipient = await importPublicKey(publicKey);
  const ephemeral = await generateEphemeralKeyPair();
  const ephemeralRaw = await exportPublicKeyRaw(ephemeral.publicKey);
  const shared = await ecdhSharedSecret(ephemeral.privateKey, recipient);
  const key = await deriveAesKey(shared, ephemeralRaw, info, ['encrypt']);
  shared.fill(0);
  const iv = randomBytes(PARAMS.aes.ivBytes);
  return encodeVersioned([ephemeralRaw, iv, await aesEncrypt(key, iv, plaintext, additionalData)], version);
}

async function unwrap(
  privateKey: CryptoKey,
  wrapped: string,
  info: string,
  version: FormatVersion,
  additionalData?: Bytes,
): Promise<Bytes> {
  const [ephemeralRaw, iv, ciphertext] = parseVersioned(
    wrapped,
    'wrapped value',
    [PARAMS.ecdh.publicKeyBytes, PARAMS.aes.ivBytes, { min: PARAMS.aes.tagBytes }],
    version,
  );
  let ephemeral: CryptoKey;
  try {
    ephemeral = await importPublicKeyRaw(ephemeralRaw);
  } catch {
    // An altered ephemeral key is usually off the curve: same answer as any other tampering.
    throw new DecryptionError();
  }
  const shared = await ecdhSharedSecret(privateKey, ephemeral);
  const key = await deriveAesKey(shared, ephemeralRaw, info, ['decrypt']);
  shared.fill(0);
  return aesDecrypt(key, iv, ciphertext, additionalData);
}
