import { randomSecret, versionedString } from '@whistle/contracts';
import { generateDiscloserPassphrase, sealForDiscloser } from './discloser';
import { fromBase64Url, toBase64Url, utf8Encode } from './encoding';
import { encodeVersioned } from './format';
import { PARAMS } from './params';
import { encodePublicKey, wrapToPublicKey } from './wrap';
import {
  aesEncrypt,
  deriveAesKey,
  exportPrivateKeyPkcs8,
  exportPublicKeyRaw,
  generateExportableKeyPair,
  randomBytes,
} from './webcrypto';

/** Every variant of `value` with one bit flipped in one byte of one part (first, middle, last byte). */
export function tamperedVariants(value: string): { part: number; value: string }[] {
  const [version, ...parts] = value.split('.');
  return parts.flatMap((part, index) => {
    const bytes = fromBase64Url(part);
    return [0, bytes.length >> 1, bytes.length - 1].map((position) => {
      const altered = bytes.slice();
      altered[position] ^= 0x01;
      const alteredParts = parts.slice();
      alteredParts[index] = toBase64Url(altered);
      return { part: index + 1, value: [version, ...alteredParts].join('.') };
    });
  });
}

export function isVersionedString(value: string, max = 100_000): boolean {
  return versionedString(max).safeParse(value).success;
}

export function isRandomSecret(value: string): boolean {
  return randomSecret.safeParse(value).success;
}

/** Base64url, like the bare aes_salt and aes_iv fields. */
export const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * A case as browsers made them before case team secrets: the incident passphrase itself wrapped to the company and
 * sealed for the discloser, the private key sealed under it as `v1.`. For the tests that old cases still open.
 */
export async function createLegacyIncident(companyPublicKey: string) {
  const pair = await generateExportableKeyPair();
  const publicKey = encodePublicKey(await exportPublicKeyRaw(pair.publicKey));
  const passphrase = randomBytes(PARAMS.secretBytes);
  const salt = randomBytes(PARAMS.hkdf.saltBytes);
  const iv = randomBytes(PARAMS.aes.ivBytes);
  const sealingKey = await deriveAesKey(passphrase, salt, PARAMS.info.incidentPrivateKey, ['encrypt']);
  const pkcs8 = await exportPrivateKeyPkcs8(pair.privateKey);
  const sealed = await aesEncrypt(sealingKey, iv, pkcs8, utf8Encode(publicKey));
  const discloserPassphrase = generateDiscloserPassphrase();
  return {
    payload: {
      credential: { public_key: publicKey, aes_encrypted_private_key: encodeVersioned([sealed]) },
      aes_salt: toBase64Url(salt),
      aes_iv: toBase64Url(iv),
      company_encrypted_passphrase: await wrapToPublicKey(companyPublicKey, passphrase, 'incident-passphrase'),
      discloser_encrypted_passphrase: await sealForDiscloser(discloserPassphrase, passphrase),
    },
    discloserPassphrase,
  };
}
