import { KeyEncryptionKey } from '../secrets/key-encryption';
import { fakeKdfSalt } from './fake-kdf-salt';

/** The KEK 0x60…0x7f. */
const kek = KeyEncryptionKey.fromBase64('YGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn8=');

describe('fake salt of an address without an account', () => {
  test('when asked for an unknown address, then the salt is HMAC-SHA-256(HKDF(KEK, "whistle/kek/fake-kdf-salt"), address) cut to 16 bytes', () => {
    // Computed once with WebCrypto (HKDF → HMAC key, sign), not node:crypto's hkdfSync/createHmac used here: a change
    // of the derivation changes every unknown address's salt, and a change seen between two calls tells an account.
    expect(fakeKdfSalt(kek, 'nobody@example.com')).toBe('ju-WF7D0Eu67nLGpUpWBtg');
  });

  test('when the address is typed with other case or spaces, then the salt is the same, and another address gets another', () => {
    expect(fakeKdfSalt(kek, '  Nobody@Example.COM ')).toBe('ju-WF7D0Eu67nLGpUpWBtg');
    expect(fakeKdfSalt(kek, 'somebody@example.com')).not.toBe('ju-WF7D0Eu67nLGpUpWBtg');
    expect(fakeKdfSalt(kek, 'nobody@example.com')).toHaveLength(22);
  });
});
