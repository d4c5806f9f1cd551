import { randomBytes, randomUUID } from 'node:crypto';
import { KeyEncryptionKey } from './key-encryption';

const kek = KeyEncryptionKey.fromBase64(randomBytes(32).toString('base64'));
const companyId = randomUUID();

/** The parts of a wrapped secret: `v1.<iv>.<ciphertext + 16-byte tag>`. */
function parts(wrapped: string): { iv: string; data: Buffer } {
  const [, iv, data] = wrapped.split('.');
  return { iv: iv!, data: Buffer.from(data!, 'base64url') };
}

describe('KeyEncryptionKey', () => {
  test('when a secret is wrapped, then only the same key and company unwrap it', () => {
    const wrapped = kek.wrap('company passphrase', companyId);
    expect(kek.unwrap(wrapped, companyId)).toBe('company passphrase');
    expect(() => kek.unwrap(wrapped, randomUUID())).toThrow();
    expect(() => KeyEncryptionKey.fromBase64(randomBytes(32).toString('base64')).unwrap(wrapped, companyId)).toThrow();
  });

  test('when the tag is truncated, then the wrapped secret is refused', () => {
    // GCM tags cut short are prefixes of the full tag: without a pinned tag length a 4-byte prefix (2^32 guesses to
    // forge) would authenticate an empty secret.
    const { iv, data } = parts(kek.wrap('', companyId));
    expect(data).toHaveLength(16);
    for (const length of [4, 8, 12, 15]) {
      const truncated = ['v1', iv, data.subarray(0, length).toString('base64url')].join('.');
      expect(() => kek.unwrap(truncated, companyId)).toThrow(/authentication tag/);
    }
  });

  test('when the ciphertext or its tag is altered, then the wrapped secret is refused', () => {
    const { iv, data } = parts(kek.wrap('company passphrase', companyId));
    for (const index of [0, data.length - 1]) {
      const altered = Buffer.from(data);
      altered[index]! ^= 1;
      expect(() => kek.unwrap(['v1', iv, altered.toString('base64url')].join('.'), companyId)).toThrow();
    }
  });
});
