import { DecryptionError } from './errors';
import {
  createPersonKeys,
  importPersonKeys,
  openPersonSecret,
  personFingerprint,
  resealPersonSecret,
  sealPersonSecret,
  unlockPersonKeys,
} from './person-keys';
import { tamperedVariants } from './test-support';
import { importAesKey, randomBytes } from './webcrypto';

const unlockKey = () => importAesKey(randomBytes(32), ['encrypt', 'decrypt']);

describe('person keys: an ECDH and an ECDSA pair per person, sealed under their unlock keys', () => {
  it('when sealed and unlocked, then the keys decrypt and sign, and are not extractable', async () => {
    const key = await unlockKey();
    const { publicKeys, secret } = await createPersonKeys();
    const sealed = await sealPersonSecret(key, secret, publicKeys);
    expect(sealed).toMatch(/^v2\.[\w-]+\.[\w-]+$/);
    const person = await unlockPersonKeys(key, sealed, publicKeys);
    expect(person.decryptionKey.extractable).toBe(false);
    expect(person.signingKey.extractable).toBe(false);
    const signature = await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      person.signingKey,
      Uint8Array.of(1, 2, 3),
    );
    const verifying = await crypto.subtle.importKey(
      'raw',
      Buffer.from(publicKeys.signing_public_key.slice(3), 'base64url'),
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    expect(
      await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, verifying, signature, Uint8Array.of(1, 2, 3)),
    ).toBe(true);
  });

  it('when a second unlock key seals the same secret, then each copy opens alone (password, passkey, passphrase)', async () => {
    const [password, passkey] = await Promise.all([unlockKey(), unlockKey()]);
    const { publicKeys, secret } = await createPersonKeys();
    const [byPassword, byPasskey] = await Promise.all([
      sealPersonSecret(password, secret, publicKeys),
      sealPersonSecret(passkey, secret, publicKeys),
    ]);
    await expect(unlockPersonKeys(passkey, byPasskey, publicKeys)).resolves.toBeDefined();
    await expect(unlockPersonKeys(password, byPasskey, publicKeys)).rejects.toThrow(DecryptionError);
    const reopened = await openPersonSecret(password, byPassword, publicKeys);
    expect(Buffer.from(reopened).equals(Buffer.from(secret))).toBe(true);
  });

  it('when a copy is resealed under another unlock key, then only the new key opens the new copy, and a wrong old key is refused', async () => {
    const [before, after] = await Promise.all([unlockKey(), unlockKey()]);
    const { publicKeys, secret } = await createPersonKeys();
    const sealed = await sealPersonSecret(before, secret, publicKeys);
    const resealed = await resealPersonSecret(before, sealed, publicKeys, after);
    expect(Array.from(await openPersonSecret(after, resealed, publicKeys))).toEqual(Array.from(secret));
    await expect(openPersonSecret(before, resealed, publicKeys)).rejects.toThrow(DecryptionError);
    await expect(resealPersonSecret(after, sealed, publicKeys, after)).rejects.toThrow(DecryptionError);
  });

  it('when the server pairs a sealed copy with other public keys, then it does not open', async () => {
    const key = await unlockKey();
    const mine = await createPersonKeys();
    const other = await createPersonKeys();
    const sealed = await sealPersonSecret(key, mine.secret, mine.publicKeys);
    await expect(unlockPersonKeys(key, sealed, other.publicKeys)).rejects.toThrow(DecryptionError);
    await expect(
      unlockPersonKeys(key, sealed, { ...mine.publicKeys, signing_public_key: other.publicKeys.signing_public_key }),
    ).rejects.toThrow(DecryptionError);
  });

  it('when one byte of a sealed copy is altered, then it does not open', async () => {
    const key = await unlockKey();
    const { publicKeys, secret } = await createPersonKeys();
    const sealed = await sealPersonSecret(key, secret, publicKeys);
    for (const tampered of tamperedVariants(sealed)) {
      await expect(unlockPersonKeys(key, tampered.value, publicKeys)).rejects.toThrow(DecryptionError);
    }
  });

  it('when private keys are imported with public keys they do not belong to, then they are refused', async () => {
    const mine = await createPersonKeys();
    const other = await createPersonKeys();
    await expect(importPersonKeys(mine.secret, other.publicKeys)).rejects.toThrow(DecryptionError);
  });

  it('when fingerprinted, then each person has a short grouped fingerprint of their own, stable for their keys', async () => {
    const mine = await createPersonKeys();
    const other = await createPersonKeys();
    const fingerprint = await personFingerprint(mine.publicKeys);
    expect(fingerprint).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}( [0-9A-HJKMNP-TV-Z]{4}){4}$/);
    expect(await personFingerprint(mine.publicKeys)).toBe(fingerprint);
    expect(await personFingerprint(other.publicKeys)).not.toBe(fingerprint);
  });
});
