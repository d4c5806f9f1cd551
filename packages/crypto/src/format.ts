import { fromBase64Url, toBase64Url, type Bytes } from './encoding';
import { CryptoFormatError } from './errors';
import { PARAMS } from './params';

/** Expected decoded size of one part: exact, or at least `min` bytes. */
export type PartSize = number | { min: number };

/**
 * A format version: `v1` for what the first protocol wrote, `v2` for values bound to their place (README), `v3` for
 * notes under a case's notes key.
 */
export type FormatVersion = typeof PARAMS.version | typeof PARAMS.v2.version | typeof PARAMS.teamSecret.noteVersion;

/** `v1.<base64url>.<base64url>…`: the shape @whistle/contracts calls `versionedString`. */
export function encodeVersioned(parts: readonly Uint8Array[], version: FormatVersion = PARAMS.version): string {
  return [version, ...parts.map(toBase64Url)].join('.');
}

/** The version prefix of a value this package wrote (`v1`, `v2`), or undefined for anything else. */
export function versionOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const version = value.slice(0, value.indexOf('.'));
  return /^v[0-9]+$/.test(version) ? version : undefined;
}

/**
 * Splits and decodes a versioned string. `what` names the value in the error (never the value
 * itself: it may be secret-adjacent and errors end up in logs).
 */
export function parseVersioned(
  value: unknown,
  what: string,
  sizes: readonly PartSize[],
  expectedVersion: FormatVersion = PARAMS.version,
): Bytes[] {
  if (typeof value !== 'string') throw new CryptoFormatError(`Malformed ${what}: not a string`);
  const [version, ...parts] = value.split('.');
  if (!/^v[0-9]+$/.test(version)) throw new CryptoFormatError(`Malformed ${what}: no version prefix`);
  if (version !== expectedVersion) throw new CryptoFormatError(`Unsupported ${what} version ${version}`);
  if (parts.length !== sizes.length) {
    throw new CryptoFormatError(`Malformed ${what}: expected ${sizes.length} parts, got ${parts.length}`);
  }
  return parts.map((part, index) => {
    if (part === '') throw new CryptoFormatError(`Malformed ${what}: empty part`);
    let bytes: Bytes;
    try {
      bytes = fromBase64Url(part);
    } catch (error) {
      throw new CryptoFormatError(`Malformed ${what}: ${(error as Error).message}`);
    }
    const size = sizes[index];
    const fits = typeof size === 'number' ? bytes.length === size : bytes.length >= size.min;
    if (!fits) throw new CryptoFormatError(`Malformed ${what}: part ${index + 1} has a wrong size`);
    return bytes;
  });
}

/** A bare base64url value of a fixed size (aes_salt, aes_iv). */
export function parseFixedBase64Url(value: unknown, what: string, size: number): Bytes {
  if (typeof value !== 'string') throw new CryptoFormatError(`Malformed ${what}: not a string`);
  let bytes: Bytes;
  try {
    bytes = fromBase64Url(value);
  } catch (error) {
    throw new CryptoFormatError(`Malformed ${what}: ${(error as Error).message}`);
  }
  if (bytes.length !== size) throw new CryptoFormatError(`Malformed ${what}: wrong size`);
  return bytes;
}
