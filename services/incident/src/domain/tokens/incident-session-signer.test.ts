import { randomUUID } from 'node:crypto';
import { AuthenticationError, ConfigError } from '@whistle/service-kit';
import { createIncidentSessionVerifier } from '@whistle/tokens';
import { generateDiscloserTokenKeys } from '@whistle/tokens/testing';
import { createIncidentSessionSigner } from './incident-session-signer';

const keys = generateDiscloserTokenKeys();
const verifier = createIncidentSessionVerifier(keys.publicKeyPem);
const claims = { incidentId: randomUUID(), companyId: randomUUID() };

describe('incident session signer', () => {
  test('when a discloser token is signed, then the public key verifies it for that incident, for at most 30 minutes', async () => {
    const { token, expiresAt } = await createIncidentSessionSigner(keys.privateKeyPem).signDiscloser(claims);
    expect(await verifier.verify(token)).toEqual({ ...claims, expiresAt, actor: { type: 'DISCLOSER' } });
    expect(expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(30 * 60 * 1000);
  });

  test('when a staff file token is signed, then it names the staff member and lasts at most 10 minutes', async () => {
    const userId = randomUUID();
    const { token, expiresAt } = await createIncidentSessionSigner(keys.privateKeyPem).signStaffFiles({
      ...claims,
      userId,
    });
    expect(await verifier.verify(token)).toEqual({ ...claims, expiresAt, actor: { type: 'STAFF', userId } });
    expect(expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(10 * 60 * 1000);
  });

  test('when the signer is given PEM with escaped line breaks (as in an environment variable), then it signs all the same', async () => {
    const escaped = createIncidentSessionSigner(keys.privateKeyPem.replace(/\n/g, '\\n'));
    await expect(verifier.verify((await escaped.signDiscloser(claims)).token)).resolves.toMatchObject(claims);
    expect(escaped.publicKeyPem).toBe(keys.publicKeyPem);
  });

  test('when a token has expired, then it is refused', async () => {
    const signer = createIncidentSessionSigner(keys.privateKeyPem, { discloserLifetimeSeconds: -10 });
    await expect(verifier.verify((await signer.signDiscloser(claims)).token)).rejects.toBeInstanceOf(
      AuthenticationError,
    );
  });

  test('when the private key is not an EC P-256 PEM, then configuration fails without echoing it', () => {
    expect(() => createIncidentSessionSigner('not a key')).toThrow(ConfigError);
    expect(() => createIncidentSessionSigner(keys.publicKeyPem)).toThrow('DISCLOSER_TOKEN_PRIVATE_KEY');
    try {
      createIncidentSessionSigner('secret-material');
    } catch (error) {
      expect((error as Error).message).not.toContain('secret-material');
    }
  });
});
