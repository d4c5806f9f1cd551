import { createCompanyCredentials, unlockCompanyPrivateKey } from './legacy-company-key';
import { DecryptionError, CryptoFormatError } from './errors';
import { isVersionedString, tamperedVariants } from './test-support';
import { unwrapBound, unwrapWithPrivateKey, wrapBound, wrapToPublicKey } from './wrap';

async function companyKeys() {
  const { credential, passphrase } = await createCompanyCredentials();
  const privateKey = await unlockCompanyPrivateKey({
    aes_encrypted_private_key: credential.aes_encrypted_private_key,
    passphrase,
  });
  return { publicKey: credential.public_key, privateKey };
}

describe('wrapToPublicKey / unwrapWithPrivateKey (ECIES P-256, HKDF-SHA-256, AES-256-GCM)', () => {
  it('round-trips, including empty input, as v1.<ephemeral key>.<iv>.<ciphertext>', async () => {
    const { publicKey, privateKey } = await companyKeys();
    for (const size of [0, 1, 32, 1000]) {
      const bytes = globalThis.crypto.getRandomValues(new Uint8Array(size));
      const wrapped = await wrapToPublicKey(publicKey, bytes, 'content');
      expect(isVersionedString(wrapped)).toBe(true);
      expect(wrapped.split('.')).toHaveLength(4);
      expect(Array.from(await unwrapWithPrivateKey(privateKey, wrapped, 'content'))).toEqual(Array.from(bytes));
    }
  });

  it('uses a fresh ephemeral key each time', async () => {
    const { publicKey } = await companyKeys();
    const bytes = Uint8Array.of(1);
    const [a, b] = await Promise.all([
      wrapToPublicKey(publicKey, bytes, 'content'),
      wrapToPublicKey(publicKey, bytes, 'content'),
    ]);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
  });

  it('refuses another private key', async () => {
    const [alice, bob] = await Promise.all([companyKeys(), companyKeys()]);
    const wrapped = await wrapToPublicKey(alice.publicKey, Uint8Array.of(1, 2), 'content');
    await expect(unwrapWithPrivateKey(bob.privateKey, wrapped, 'content')).rejects.toThrow(DecryptionError);
  });

  it('refuses a value wrapped for another purpose', async () => {
    const { publicKey, privateKey } = await companyKeys();
    const wrapped = await wrapToPublicKey(publicKey, Uint8Array.of(1, 2), 'content');
    await expect(unwrapWithPrivateKey(privateKey, wrapped, 'incident-passphrase')).rejects.toThrow(DecryptionError);
    await expect(unwrapWithPrivateKey(privateKey, wrapped, 'file-key')).rejects.toThrow(DecryptionError);
  });

  it('refuses one altered byte in each part (ephemeral key, iv, ciphertext, tag)', async () => {
    const { publicKey, privateKey } = await companyKeys();
    const wrapped = await wrapToPublicKey(publicKey, Uint8Array.of(1, 2, 3), 'content');
    const variants = tamperedVariants(wrapped);
    expect(new Set(variants.map((variant) => variant.part))).toEqual(new Set([1, 2, 3]));
    for (const tampered of variants) {
      await expect(unwrapWithPrivateKey(privateKey, tampered.value, 'content')).rejects.toThrow(DecryptionError);
    }
  });

  it('refuses malformed public keys and wrapped values with a format error', async () => {
    const { publicKey, privateKey } = await companyKeys();
    await expect(wrapToPublicKey('v2' + publicKey.slice(2), Uint8Array.of(1), 'content')).rejects.toThrow(
      CryptoFormatError,
    );
    await expect(wrapToPublicKey(publicKey.slice(0, -4), Uint8Array.of(1), 'content')).rejects.toThrow(
      CryptoFormatError,
    );
    await expect(unwrapWithPrivateKey(privateKey, 'v1.AAAA', 'content')).rejects.toThrow(CryptoFormatError);
    const wrapped = await wrapToPublicKey(publicKey, Uint8Array.of(1), 'content');
    await expect(unwrapWithPrivateKey(privateKey, wrapped.replace(/^v1/, 'v9'), 'content')).rejects.toThrow(
      CryptoFormatError,
    );
  });

  it('refuses a public key that is not a point on P-256', async () => {
    const offCurve = 'v1.' + Buffer.concat([Buffer.of(4), Buffer.alloc(64, 1)]).toString('base64url');
    await expect(wrapToPublicKey(offCurve, Uint8Array.of(1), 'content')).rejects.toThrow();
  });
});

describe('wrapBound / unwrapBound (v2: the context as associated data)', () => {
  it('when opened in its own context, then it round-trips; in another context or purpose, it does not open', async () => {
    const { publicKey, privateKey } = await companyKeys();
    const wrapped = await wrapBound(publicKey, Uint8Array.of(1, 2, 3), 'company-key', 'company-key\nA\nB');
    expect(wrapped).toMatch(/^v2\./);
    expect(Array.from(await unwrapBound(privateKey, wrapped, 'company-key', 'company-key\nA\nB'))).toEqual([1, 2, 3]);
    await expect(unwrapBound(privateKey, wrapped, 'company-key', 'company-key\nA\nC')).rejects.toThrow(DecryptionError);
    await expect(unwrapBound(privateKey, wrapped, 'incident-passphrase', 'company-key\nA\nB')).rejects.toThrow(
      DecryptionError,
    );
    // A v2 value is not read as v1, nor the other way round.
    await expect(unwrapWithPrivateKey(privateKey, wrapped, 'content')).rejects.toThrow(CryptoFormatError);
    const v1 = await wrapToPublicKey(publicKey, Uint8Array.of(1), 'content');
    await expect(unwrapBound(privateKey, v1, 'company-key', 'x')).rejects.toThrow(CryptoFormatError);
  });
});
