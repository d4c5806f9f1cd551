import { CryptoFormatError } from './errors';

/** Bytes backed by a plain ArrayBuffer: what WebCrypto accepts as a BufferSource. */
export type Bytes = Uint8Array<ArrayBuffer>;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LOOKUP = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i += 1) LOOKUP[ALPHABET.charCodeAt(i)] = i;

/** base64url without padding (RFC 4648 §5). */
export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63];
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63];
  }
  return out;
}

/**
 * Strict decoder: only the url alphabet, no padding, no whitespace, and zero trailing bits, so each
 * byte string has exactly one accepted encoding (no malleable "equivalent" ciphertext strings).
 */
export function fromBase64Url(text: string): Bytes {
  if (text.length % 4 === 1) throw new CryptoFormatError('Invalid base64url length');
  const values = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? LOOKUP[code] : -1;
    if (value < 0) throw new CryptoFormatError('Invalid base64url character');
    values[i] = value;
  }
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let o = 0;
  let i = 0;
  for (; i + 3 < values.length; i += 4) {
    const n = (values[i] << 18) | (values[i + 1] << 12) | (values[i + 2] << 6) | values[i + 3];
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
    out[o++] = n & 255;
  }
  const rest = values.length - i;
  if (rest === 2) {
    if (values[i + 1] & 15) throw new CryptoFormatError('Non-canonical base64url');
    out[o] = (values[i] << 2) | (values[i + 1] >> 4);
  } else if (rest === 3) {
    if (values[i + 2] & 3) throw new CryptoFormatError('Non-canonical base64url');
    out[o++] = (values[i] << 2) | (values[i + 1] >> 4);
    out[o] = ((values[i + 1] & 15) << 4) | (values[i + 2] >> 2);
  }
  return out;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export function utf8Encode(text: string): Bytes {
  return encoder.encode(text);
}

export function utf8Decode(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new CryptoFormatError('Invalid UTF-8');
  }
}

export function concatBytes(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Views bytes without copying (a 25 MB file must not be duplicated needlessly). WebCrypto reads
 * any ArrayBuffer-backed view; `ArrayBuffer.isView` also works across realms (jest, iframes).
 */
export function asBytes(input: Uint8Array | ArrayBuffer): Bytes {
  return (ArrayBuffer.isView(input) ? input : new Uint8Array(input)) as Bytes;
}
