import { randomSecret, versionedString } from '@whistle/contracts';
import { fromBase64Url, toBase64Url } from './encoding';

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
