import { CryptoFormatError } from './errors';
import type { Bytes } from './encoding';

/** Crockford's base32 (no I, L, O, U): survives being read aloud, printed and typed back. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LOOK_ALIKES: Record<string, string> = { I: '1', L: '1', O: '0' };

/** Big-endian, 5 bits a symbol; the last symbol's unused low bits are zero. */
export function toCrockfordBase32(bytes: Uint8Array, symbols = Math.ceil((bytes.length * 8) / 5)): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < symbols) {
      out += ALPHABET[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0 && out.length < symbols) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/** Reads what a person typed: case, spaces and dashes ignored, I/L read as 1 and O as 0. */
export function fromCrockfordBase32(text: string, byteLength: number): Bytes {
  const symbols = text
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/[ILO]/g, (c) => LOOK_ALIKES[c]);
  if (symbols.length !== Math.ceil((byteLength * 8) / 5)) throw new CryptoFormatError('Wrong number of symbols');
  const out = new Uint8Array(byteLength);
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const symbol of symbols) {
    const value = ALPHABET.indexOf(symbol);
    if (value < 0) throw new CryptoFormatError('Not a base32 symbol');
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      if (index < byteLength) out[index++] = (buffer >> (bits - 8)) & 255;
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  }
  if (buffer !== 0) throw new CryptoFormatError('Non-canonical base32');
  return out;
}

/** `ABCD EFGH …` */
export function groupSymbols(symbols: string, size: number, separator = ' '): string {
  return symbols.match(new RegExp(`.{1,${size}}`, 'g'))!.join(separator);
}
