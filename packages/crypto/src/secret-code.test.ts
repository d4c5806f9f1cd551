import { generateDiscloserPassphrase } from './discloser';
import { CryptoFormatError } from './errors';
import { formatSecretCode, parseSecretCode, secretCodeGroups } from './secret-code';

/** A code as the pages show it: a retrieval id, then the passphrase's groups. */
const GROUPED = '3f9a12bc44d0e1f29a0b:k3m9-p2q8-x7yz-abcd-0123-4567-89vw';

describe('secret code', () => {
  const passphrase = generateDiscloserPassphrase();

  it('is retrieval_id:passphrase and parses back', () => {
    const code = formatSecretCode('Rk3-x_9', passphrase);
    expect(code).toBe(`Rk3-x_9:${passphrase}`);
    expect(parseSecretCode(code)).toEqual({ retrievalId: 'Rk3-x_9', passphrase });
  });

  it('accepts a uuid as retrieval id', () => {
    const id = '0b6f4c1e-8a3d-4f7b-9c2e-5d1a0e6b7f38';
    expect(parseSecretCode(formatSecretCode(id, passphrase)).retrievalId).toBe(id);
  });

  it('forgives surrounding whitespace, spaces around the colon, case and dashes in the passphrase', () => {
    const typed = `  abc123 :  ${passphrase.toUpperCase().replace(/-/g, ' ')} \n`;
    expect(parseSecretCode(typed)).toEqual({ retrievalId: 'abc123', passphrase });
  });

  it.each([
    ['no colon', `abc123${passphrase}`],
    ['two colons', `abc:123:${passphrase}`],
    ['a colon inside the passphrase', `abc123:${passphrase.slice(0, 10)}:${passphrase.slice(10)}`],
    ['an empty retrieval id', `:${passphrase}`],
    ['an empty passphrase', 'abc123:'],
    ['a short passphrase', 'abc123:abcd-efgh'],
    ['a retrieval id with spaces', `abc 123:${passphrase}`],
    ['only whitespace', '   '],
  ])('rejects a code with %s', (_label, code) => {
    expect(() => parseSecretCode(code)).toThrow(CryptoFormatError);
  });

  it('never echoes the code in its error', () => {
    const code = `abc123:${passphrase}x`;
    expect(() => parseSecretCode(code)).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(passphrase) }),
    );
  });

  it('refuses to format a retrieval id or passphrase it could not parse back', () => {
    expect(() => formatSecretCode('abc:123', passphrase)).toThrow(CryptoFormatError);
    expect(() => formatSecretCode('', passphrase)).toThrow(CryptoFormatError);
    expect(() => formatSecretCode('abc123', 'nope')).toThrow(CryptoFormatError);
  });

  it('when the code is cut into groups, then the groups joined are the code, character for character', () => {
    expect(secretCodeGroups(GROUPED)).toEqual([
      '3f9a',
      '12bc',
      '44d0',
      'e1f2',
      '9a0b:',
      'k3m9-',
      'p2q8-',
      'x7yz-',
      'abcd-',
      '0123-',
      '4567-',
      '89vw',
    ]);
    expect(secretCodeGroups(GROUPED).join('')).toBe(GROUPED);
    expect(secretCodeGroups('abc123:aaaa-bbbb').join('')).toBe('abc123:aaaa-bbbb');
  });
});
