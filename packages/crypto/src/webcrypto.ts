import { concatBytes, fromBase64Url, utf8Encode, type Bytes } from './encoding';
import { DecryptionError } from './errors';
import { PARAMS } from './params';

/**
 * Browsers expose `crypto.subtle` only in secure contexts (https, localhost): fail with a message
 * that says so instead of "cannot read properties of undefined".
 */
export function subtle(): SubtleCrypto {
  const api = globalThis.crypto?.subtle;
  if (!api) throw new Error('WebCrypto (crypto.subtle) is unavailable: serve the page over HTTPS or localhost');
  return api;
}

export function randomBytes(size: number): Bytes {
  return globalThis.crypto.getRandomValues(new Uint8Array(size));
}

/** HKDF-SHA-256 from a high-entropy secret to an AES-256-GCM key for one purpose. */
export async function deriveAesKey(secret: Bytes, salt: Bytes, info: string, usages: KeyUsage[]): Promise<CryptoKey> {
  const ikm = await subtle().importKey('raw', secret, PARAMS.hkdf.name, false, ['deriveKey']);
  return subtle().deriveKey(
    { name: PARAMS.hkdf.name, hash: PARAMS.hkdf.hash, salt, info: utf8Encode(info) },
    ikm,
    { name: PARAMS.aes.name, length: PARAMS.aes.keyBits },
    false,
    usages,
  );
}

/** HKDF-SHA-256 output bytes (for tokens that are not keys). */
export async function deriveBytes(secret: Bytes, salt: Bytes, info: string, size: number): Promise<Bytes> {
  const ikm = await subtle().importKey('raw', secret, PARAMS.hkdf.name, false, ['deriveBits']);
  const bits = await subtle().deriveBits(
    { name: PARAMS.hkdf.name, hash: PARAMS.hkdf.hash, salt, info: utf8Encode(info) },
    ikm,
    size * 8,
  );
  return new Uint8Array(bits);
}

export function importAesKey(raw: Bytes, usages: KeyUsage[]): Promise<CryptoKey> {
  return subtle().importKey('raw', raw, { name: PARAMS.aes.name, length: PARAMS.aes.keyBits }, false, usages);
}

export async function aesEncrypt(key: CryptoKey, iv: Bytes, plaintext: Bytes, additionalData?: Bytes): Promise<Bytes> {
  const params: AesGcmParams = { name: PARAMS.aes.name, iv, tagLength: PARAMS.aes.tagBytes * 8 };
  if (additionalData) params.additionalData = additionalData;
  return new Uint8Array(await subtle().encrypt(params, key, plaintext));
}

/** AES-GCM open; any failure (wrong key, altered byte, wrong associated data) is a DecryptionError. */
export async function aesDecrypt(key: CryptoKey, iv: Bytes, ciphertext: Bytes, additionalData?: Bytes): Promise<Bytes> {
  const params: AesGcmParams = { name: PARAMS.aes.name, iv, tagLength: PARAMS.aes.tagBytes * 8 };
  if (additionalData) params.additionalData = additionalData;
  try {
    return new Uint8Array(await subtle().decrypt(params, key, ciphertext));
  } catch {
    throw new DecryptionError();
  }
}

const ecdh = { name: PARAMS.ecdh.name, namedCurve: PARAMS.ecdh.namedCurve } as const;

/** Extractable, because the private key must be exported (pkcs8) to be stored encrypted. */
export function generateExportableKeyPair(): Promise<CryptoKeyPair> {
  return subtle().generateKey(ecdh, true, ['deriveBits']);
}

/** Ephemeral pair for one wrap: the private half never leaves the call. */
export function generateEphemeralKeyPair(): Promise<CryptoKeyPair> {
  return subtle().generateKey(ecdh, false, ['deriveBits']);
}

export async function exportPublicKeyRaw(key: CryptoKey): Promise<Bytes> {
  return new Uint8Array(await subtle().exportKey('raw', key));
}

export async function exportPrivateKeyPkcs8(key: CryptoKey): Promise<Bytes> {
  return new Uint8Array(await subtle().exportKey('pkcs8', key));
}

/** Raw uncompressed point; WebCrypto rejects points not on the curve. */
export function importPublicKeyRaw(raw: Bytes): Promise<CryptoKey> {
  return subtle().importKey('raw', raw, ecdh, true, []);
}

/** Non-extractable once unlocked: script on the page can use the key but not copy it out. */
export function importPrivateKeyPkcs8(pkcs8: Bytes): Promise<CryptoKey> {
  return subtle().importKey('pkcs8', pkcs8, ecdh, false, ['deriveBits']);
}

export async function ecdhSharedSecret(privateKey: CryptoKey, publicKey: CryptoKey): Promise<Bytes> {
  const bits = await subtle().deriveBits(
    { name: PARAMS.ecdh.name, public: publicKey },
    privateKey,
    PARAMS.ecdh.sharedSecretBits,
  );
  return new Uint8Array(bits);
}

export async function sha256(data: Bytes): Promise<Bytes> {
  return new Uint8Array(await subtle().digest(PARAMS.digest, data));
}

const ecdsa = { name: PARAMS.v2.ecdsa.name, namedCurve: PARAMS.v2.ecdsa.namedCurve } as const;

/** A person's signing pair: extractable once, to be sealed with their decryption key. */
export function generateExportableSigningKeyPair(): Promise<CryptoKeyPair> {
  return subtle().generateKey(ecdsa, true, ['sign', 'verify']);
}

export function importSigningKeyPkcs8(pkcs8: Bytes): Promise<CryptoKey> {
  return subtle().importKey('pkcs8', pkcs8, ecdsa, false, ['sign']);
}

export function importVerifyingKeyRaw(raw: Bytes): Promise<CryptoKey> {
  return subtle().importKey('raw', raw, ecdsa, true, ['verify']);
}

/**
 * The raw public point of a pkcs8 private key (ECDH or ECDSA), read from its JWK form: lets a browser check that
 * a private key it was handed belongs to the public key it expects, before using it.
 */
export async function publicPointOfPkcs8(pkcs8: Bytes, algorithm: 'ECDH' | 'ECDSA'): Promise<Bytes> {
  const params = algorithm === 'ECDH' ? ecdh : ecdsa;
  const usages: KeyUsage[] = algorithm === 'ECDH' ? ['deriveBits'] : ['sign'];
  let jwk: JsonWebKey;
  try {
    const key = await subtle().importKey('pkcs8', pkcs8, params, true, usages);
    jwk = await subtle().exportKey('jwk', key);
  } catch {
    throw new DecryptionError('Not a P-256 private key');
  }
  const x = fromBase64Url(jwk.x ?? '');
  const y = fromBase64Url(jwk.y ?? '');
  return concatBytes(new Uint8Array([4]), x, y);
}
