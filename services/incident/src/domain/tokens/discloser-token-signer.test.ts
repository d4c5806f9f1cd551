import { randomUUID } from 'node:crypto';
import { AuthenticationError, ConfigError } from '@whistle/service-kit';
import { createDiscloserTokenVerifier } from '@whistle/tokens';
import { generateDiscloserTokenKeys } from '@whistle/tokens/testing';
import { createDiscloserTokenSigner } from './discloser-token-signer';

const keys = generateDiscloserTokenKeys();
const verifier = createDiscloserTokenVerifier(keys.publicKeyPem);
const claims = { incidentId: randomUUID(), companyId: randomUUID() };

describe('discloser token signer', () => {
  test('when a token is signed, then the public key verifies it for that incident, for at most 30 minutes', async () => {
    const { token, expiresAt } = await createDiscloserTokenSigner(keys.privateKeyPem).sign(claims);
    expect(await verifier.verify(token)).toEqual({ ...claims, expiresAt });
    expect(expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(30 * 60 * 1000);
  });

  test('when the signer is given PEM with escaped line breaks (as in an environment variable), then it signs all the same', async () => {
    const escaped = createDiscloserTokenSigner(keys.privateKeyPem.replace(/\n/g, '\\n'));
    await expect(verifier.verify((await escaped.sign(claims)).token)).resolves.toMatchObject(claims);
    expect(escaped.publicKeyPem).toBe(keys.publicKeyPem);
  });

  test('when a token has expired, then it is refused', async () => {
    const expired = await createDiscloserTokenSigner(keys.privateKeyPem, { lifetimeSeconds: -10 }).sign(claims);
    await expect(verifier.verify(expired.token)).rejects.toBeInstanceOf(AuthenticationError);
  });

  test('when the private key is not an EC P-256 PEM, then configuration fails without echoing it', () => {
    expect(() => createDiscloserTokenSigner('not a key')).toThrow(ConfigError);
    expect(() => createDiscloserTokenSigner(keys.publicKeyPem)).toThrow('DISCLOSER_TOKEN_PRIVATE_KEY');
    try {
      createDiscloserTokenSigner('secret-material');
    } catch (error) {
      expect((error as Error).message).not.toContain('secret-material');
    }
  });
});
