import { asBytes, concatBytes, fromBase64Url, toBase64Url, utf8Decode, utf8Encode } from './encoding';
import { CryptoFormatError } from './errors';

describe('base64url', () => {
  it('matches Node for every length from 0 to 70 bytes, without padding', () => {
    for (let size = 0; size <= 70; size += 1) {
      const bytes = globalThis.crypto.getRandomValues(new Uint8Array(size));
      const encoded = toBase64Url(bytes);
      expect(encoded).toBe(Buffer.from(bytes).toString('base64url'));
      expect(encoded).not.toContain('=');
      expect(Array.from(fromBase64Url(encoded))).toEqual(Array.from(bytes));
    }
  });

  it.each([
    ['padding', 'AA=='],
    ['standard alphabet +', 'ab+c'],
    ['standard alphabet /', 'ab/c'],
    ['whitespace', 'ab c'],
    ['impossible length', 'abcde'],
    ['non-canonical trailing bits (1 byte)', 'AB'],
    ['non-canonical trailing bits (2 bytes)', 'AAB'],
    ['non-ASCII', 'abé'],
  ])('rejects %s', (_label, text) => {
    expect(() => fromBase64Url(text)).toThrow(CryptoFormatError);
  });
});

describe('utf8', () => {
  it('round-trips non-ASCII text', () => {
    const text = 'Signalement — été 🚨 日本';
    expect(utf8Decode(utf8Encode(text))).toBe(text);
  });

  it('rejects invalid UTF-8 instead of inserting replacement characters', () => {
    expect(() => utf8Decode(Uint8Array.of(0xff, 0xfe))).toThrow(CryptoFormatError);
  });
});

describe('byte helpers', () => {
  it('concatenates in order', () => {
    expect(Array.from(concatBytes(Uint8Array.of(1), Uint8Array.of(), Uint8Array.of(2, 3)))).toEqual([1, 2, 3]);
  });

  it('views an ArrayBuffer and keeps a Uint8Array as it is (no copy of large files)', () => {
    const view = new Uint8Array(8);
    expect(asBytes(view)).toBe(view);
    expect(asBytes(view.buffer).length).toBe(8);
  });
});
