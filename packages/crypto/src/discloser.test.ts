import {
  deriveDiscloserAuthToken,
  generateDiscloserPassphrase,
  hashDiscloserAuthToken,
  normalizeDiscloserPassphrase,
  openForDiscloser,
  sealForDiscloser,
  verifyDiscloserAuthToken,
} from './discloser';
import { fromBase64Url } from './encoding';
import { CryptoFormatError, DecryptionError } from './errors';
import { PARAMS } from './params';
import { isRandomSecret, isVersionedString, tamperedVariants } from './test-support';

describe('discloser passphrase', () => {
  it('has 28 symbols of a 32-letter alphabet (140 bits ≥ 128), grouped by 4', () => {
    const passphrase = generateDiscloserPassphrase();
    expect(passphrase).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){6}$/);
    const { alphabet, length } = PARAMS.discloserPassphrase;
    expect(new Set(alphabet).size).toBe(32);
    expect(length * Math.log2(alphabet.length)).toBeGreaterThanOrEqual(128);
  });

  it('uses every symbol and repeats no passphrase', () => {
    const samples = Array.from({ length: 500 }, generateDiscloserPassphrase);
    expect(new Set(samples).size).toBe(samples.length);
    expect(new Set(samples.join('').replace(/-/g, '')).size).toBe(32);
  });

  it('normalises case, spaces, dashes and look-alike letters to one form', () => {
    const passphrase = generateDiscloserPassphrase();
    const symbols = passphrase.replace(/-/g, '');
    expect(normalizeDiscloserPassphrase(symbols.toUpperCase())).toBe(passphrase);
    expect(normalizeDiscloserPassphrase(` ${symbols.replace(/(.{7})/g, '$1 ')} `)).toBe(passphrase);
    const withLookAlikes = '0101'.repeat(7);
    expect(normalizeDiscloserPassphrase('OlOI'.repeat(7))).toBe(normalizeDiscloserPassphrase(withLookAlikes));
  });

  it.each([
    ['too short', 'abcd-efgh'],
    ['too long', 'abcd'.repeat(8)],
    ['outside the alphabet (u)', 'u'.repeat(28)],
    ['punctuation', `${'a'.repeat(27)}!`],
    ['empty', ''],
  ])('rejects a passphrase that is %s', (_label, input) => {
    expect(() => normalizeDiscloserPassphrase(input)).toThrow(CryptoFormatError);
  });
});

describe('discloser auth token', () => {
  it('is a 256-bit base64url secret, the same for every spelling of the passphrase', async () => {
    const passphrase = generateDiscloserPassphrase();
    const token = await deriveDiscloserAuthToken(passphrase);
    expect(isRandomSecret(token)).toBe(true);
    expect(fromBase64Url(token)).toHaveLength(32);
    expect(await deriveDiscloserAuthToken(passphrase.toUpperCase().replace(/-/g, ' '))).toBe(token);
    expect(await deriveDiscloserAuthToken(generateDiscloserPassphrase())).not.toBe(token);
  });

  it('is stored as a versioned SHA-256 hash and verified against it', async () => {
    const token = await deriveDiscloserAuthToken(generateDiscloserPassphrase());
    const stored = await hashDiscloserAuthToken(token);
    expect(isVersionedString(stored)).toBe(true);
    expect(stored).not.toContain(token);
    expect(await verifyDiscloserAuthToken(token, stored)).toBe(true);
    expect(await verifyDiscloserAuthToken(await deriveDiscloserAuthToken(generateDiscloserPassphrase()), stored)).toBe(
      false,
    );
    expect(await verifyDiscloserAuthToken('', stored)).toBe(false);
    await expect(verifyDiscloserAuthToken(token, 'v2.AAAA')).rejects.toThrow(CryptoFormatError);
  });
});

describe('sealing for the discloser', () => {
  const secret = globalThis.crypto.getRandomValues(new Uint8Array(32));

  it('round-trips as v1.<salt>.<iv>.<ciphertext> and accepts any spelling of the passphrase', async () => {
    const passphrase = generateDiscloserPassphrase();
    const sealed = await sealForDiscloser(passphrase, secret);
    expect(isVersionedString(sealed)).toBe(true);
    expect(sealed.split('.')).toHaveLength(4);
    expect(Array.from(await openForDiscloser(passphrase.toUpperCase(), sealed))).toEqual(Array.from(secret));
  });

  it('refuses another passphrase and every altered part', async () => {
    const passphrase = generateDiscloserPassphrase();
    const sealed = await sealForDiscloser(passphrase, secret);
    await expect(openForDiscloser(generateDiscloserPassphrase(), sealed)).rejects.toThrow(DecryptionError);
    for (const tampered of tamperedVariants(sealed)) {
      await expect(openForDiscloser(passphrase, tampered.value)).rejects.toThrow(DecryptionError);
    }
  });
});
