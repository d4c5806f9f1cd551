import { createCompanyCredentials, unlockCompanyPrivateKey } from './legacy-company-key';
import { fromBase64Url } from './encoding';
import { CryptoFormatError, DecryptionError } from './errors';
import { isRandomSecret, isVersionedString, tamperedVariants } from './test-support';
import { unwrapWithPrivateKey, wrapToPublicKey } from './wrap';

describe('company credentials', () => {
  it('match the company create contract: versioned key strings, 256-bit random passphrase', async () => {
    const { credential, passphrase } = await createCompanyCredentials();
    expect(isVersionedString(credential.public_key, 1024)).toBe(true);
    expect(isVersionedString(credential.aes_encrypted_private_key, 4096)).toBe(true);
    expect(isRandomSecret(passphrase)).toBe(true);
    expect(fromBase64Url(passphrase)).toHaveLength(32);
    expect(credential.aes_encrypted_private_key.split('.')).toHaveLength(4);
  });

  it('are fresh each time', async () => {
    const [a, b] = await Promise.all([createCompanyCredentials(), createCompanyCredentials()]);
    expect(a.passphrase).not.toBe(b.passphrase);
    expect(a.credential.public_key).not.toBe(b.credential.public_key);
  });

  it('unlock to a non-extractable private key that opens what was wrapped to the public key', async () => {
    const { credential, passphrase } = await createCompanyCredentials();
    const privateKey = await unlockCompanyPrivateKey({
      aes_encrypted_private_key: credential.aes_encrypted_private_key,
      passphrase,
    });
    expect(privateKey.extractable).toBe(false);
    const wrapped = await wrapToPublicKey(credential.public_key, Uint8Array.of(7, 8, 9), 'incident-passphrase');
    expect(Array.from(await unwrapWithPrivateKey(privateKey, wrapped, 'incident-passphrase'))).toEqual([7, 8, 9]);
  });

  it('refuse another company passphrase', async () => {
    const [a, b] = await Promise.all([createCompanyCredentials(), createCompanyCredentials()]);
    await expect(
      unlockCompanyPrivateKey({
        aes_encrypted_private_key: a.credential.aes_encrypted_private_key,
        passphrase: b.passphrase,
      }),
    ).rejects.toThrow(DecryptionError);
  });

  it('refuse a malformed passphrase as a format error', async () => {
    const { credential } = await createCompanyCredentials();
    for (const passphrase of ['', 'short', 'not base64url!'.repeat(4)]) {
      await expect(
        unlockCompanyPrivateKey({ aes_encrypted_private_key: credential.aes_encrypted_private_key, passphrase }),
      ).rejects.toThrow(CryptoFormatError);
    }
  });

  it('refuse one altered byte in each part of the encrypted private key', async () => {
    const { credential, passphrase } = await createCompanyCredentials();
    for (const tampered of tamperedVariants(credential.aes_encrypted_private_key)) {
      await expect(unlockCompanyPrivateKey({ aes_encrypted_private_key: tampered.value, passphrase })).rejects.toThrow(
        DecryptionError,
      );
    }
  });

  it('refuse an unknown version', async () => {
    const { credential, passphrase } = await createCompanyCredentials();
    const v2 = credential.aes_encrypted_private_key.replace(/^v1\./, 'v2.');
    await expect(unlockCompanyPrivateKey({ aes_encrypted_private_key: v2, passphrase })).rejects.toThrow(
      CryptoFormatError,
    );
  });
});
