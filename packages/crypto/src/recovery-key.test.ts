import { fromCrockfordBase32, toCrockfordBase32 } from './base32';
import { CryptoFormatError } from './errors';
import { createRecoveryKey, parseRecoveryKey } from './recovery-key';

describe('recovery key', () => {
  it('when created, then it prints as 11 groups of 5 symbols and parses back, forgiving case, dashes and look-alikes', async () => {
    const recovery = await createRecoveryKey();
    expect(recovery.text).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}( [0-9A-HJKMNP-TV-Z]{5}){10}$/);
    const typed = recovery.text.toLowerCase().replaceAll(' ', '-').replaceAll('1', 'l').replaceAll('0', 'o');
    const parsed = await parseRecoveryKey(typed);
    expect(Buffer.from(parsed.key).equals(Buffer.from(recovery.key))).toBe(true);
    expect(parsed.text).toBe(recovery.text);
  });

  it('when one symbol is mistyped, then the checksum says so before anything is tried', async () => {
    const recovery = await createRecoveryKey();
    const symbols = recovery.text.replaceAll(' ', '');
    const position = 17;
    const wrong = symbols[position] === 'A' ? 'B' : 'A';
    const typo = symbols.slice(0, position) + wrong + symbols.slice(position + 1);
    await expect(parseRecoveryKey(typo)).rejects.toThrow('typo');
  });

  it('when the text is too short or holds a symbol base32 does not have, then it is a format error', async () => {
    await expect(parseRecoveryKey('ABCDE')).rejects.toThrow(CryptoFormatError);
    const recovery = await createRecoveryKey();
    await expect(parseRecoveryKey(recovery.text.replace(/.$/, 'U'))).rejects.toThrow(CryptoFormatError);
  });
});

describe("Crockford's base32", () => {
  it('round-trips bytes of every length, and refuses non-canonical trailing bits', () => {
    for (let length = 0; length < 40; length += 1) {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      expect(Array.from(fromCrockfordBase32(toCrockfordBase32(bytes), length))).toEqual(Array.from(bytes));
    }
    expect(toCrockfordBase32(Uint8Array.of(0xff))).toBe('ZW');
    expect(() => fromCrockfordBase32('ZZ', 1)).toThrow(CryptoFormatError);
  });
});
