import { CryptoFormatError } from './errors';
import { encodeVersioned, parseFixedBase64Url, parseVersioned } from './format';
import { isVersionedString } from './test-support';

describe('versioned format', () => {
  const sizes = [2, { min: 1 }] as const;

  it('encodes v1.<base64url>… matching the contracts versionedString', () => {
    const value = encodeVersioned([Uint8Array.of(1, 2), Uint8Array.of(255, 254, 253)]);
    expect(value).toBe('v1.AQI.__79');
    expect(isVersionedString(value)).toBe(true);
    expect(parseVersioned(value, 'test value', sizes).map((part) => Array.from(part))).toEqual([
      [1, 2],
      [255, 254, 253],
    ]);
  });

  it.each([
    ['an unknown version', 'v2.AQI.__79', /Unsupported test value version v2/],
    ['a missing version', 'AQI.__79', /no version prefix/],
    ['too few parts', 'v1.AQI', /expected 2 parts/],
    ['too many parts', 'v1.AQI.__79.AA', /expected 2 parts/],
    ['an empty part', 'v1..__79', /empty part/],
    ['a wrong exact size', 'v1.AQID.__79', /wrong size/],
    ['a too short part', 'v1.AQI.', /empty part/],
    ['bad base64url', 'v1.AQI.__7+', /Invalid base64url character/],
    ['an empty string', '', /no version prefix/],
  ])('rejects %s with CryptoFormatError', (_label, value, message) => {
    expect(() => parseVersioned(value, 'test value', sizes)).toThrow(CryptoFormatError);
    expect(() => parseVersioned(value, 'test value', sizes)).toThrow(message);
  });

  it('rejects non-strings', () => {
    expect(() => parseVersioned(undefined, 'test value', sizes)).toThrow(CryptoFormatError);
    expect(() => parseVersioned(42, 'test value', sizes)).toThrow(CryptoFormatError);
  });

  it('checks bare base64url values by size', () => {
    expect(Array.from(parseFixedBase64Url('AQI', 'aes_iv', 2))).toEqual([1, 2]);
    expect(() => parseFixedBase64Url('AQI', 'aes_iv', 12)).toThrow(CryptoFormatError);
    expect(() => parseFixedBase64Url(null, 'aes_iv', 12)).toThrow(CryptoFormatError);
  });
});
