import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { AuthenticationError, ConfigError } from '@whistle/service-kit';
import { createDiscloserTokenVerifier, DISCLOSER_TOKEN_LIFETIME_SECONDS } from './discloser-token';
import { generateDiscloserTokenKeys, signDiscloserToken } from './testing';

const keys = generateDiscloserTokenKeys();
const verifier = createDiscloserTokenVerifier(keys.publicKeyPem);
const claims = { incidentId: randomUUID(), companyId: randomUUID() };
const request = (authorization?: string) =>
  ({ headers: authorization === undefined ? {} : { authorization } }) as Request;

describe('discloser session tokens', () => {
  test('when a token is signed, then the public key verifies it and gives back the incident and company', async () => {
    const token = await signDiscloserToken(keys.privateKeyPem, claims);
    const principal = await verifier.verifyRequest(request(`Bearer ${token}`));
    expect(principal).toEqual({ ...claims, expiresAt: expect.any(Date) });
    expect(principal.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(DISCLOSER_TOKEN_LIFETIME_SECONDS * 1000);
  });

  test('when the public key comes with escaped line breaks (as in an environment variable), then it verifies all the same', async () => {
    const escaped = createDiscloserTokenVerifier(keys.publicKeyPem.replace(/\n/g, '\\n'));
    await expect(escaped.verify(await signDiscloserToken(keys.privateKeyPem, claims))).resolves.toMatchObject(claims);
  });

  test('when a token is signed by another key, expired, altered or missing, then it is refused with 401', async () => {
    const foreign = await signDiscloserToken(generateDiscloserTokenKeys().privateKeyPem, claims);
    const expired = await signDiscloserToken(keys.privateKeyPem, claims, { lifetimeSeconds: -10 });
    const token = await signDiscloserToken(keys.privateKeyPem, claims);
    const [header, payload, signature] = token.split('.');
    const altered = [
      header,
      Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: randomUUID() }),
      ).toString('base64url'),
      signature,
    ].join('.');
    for (const bad of [foreign, expired, altered]) {
      await expect(verifier.verify(bad)).rejects.toBeInstanceOf(AuthenticationError);
    }
    await expect(verifier.verifyRequest(request())).rejects.toBeInstanceOf(AuthenticationError);
    await expect(verifier.verifyRequest(request(`Basic ${token}`))).rejects.toBeInstanceOf(AuthenticationError);
  });

  test('when a token of the right key lacks the discloser scope, then it is refused', async () => {
    const unscoped = await signDiscloserToken(keys.privateKeyPem, claims, { scope: null });
    await expect(verifier.verify(unscoped)).rejects.toBeInstanceOf(AuthenticationError);
  });

  test('when the key is not an EC P-256 public PEM, then configuration fails naming the variable without echoing it', () => {
    expect(() => createDiscloserTokenVerifier(keys.privateKeyPem.replace('PRIVATE', 'PUBLIC'))).toThrow(ConfigError);
    try {
      createDiscloserTokenVerifier('secret-material');
    } catch (error) {
      expect((error as Error).message).toBe('DISCLOSER_TOKEN_PUBLIC_KEY is not a PEM public key');
    }
  });
});
