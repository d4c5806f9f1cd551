import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { SignJWT } from 'jose';
import { AuthenticationError, ConfigError } from '../errors/errors';
import {
  createDiscloserTokenSigner,
  createDiscloserTokenVerifier,
  discloserTokenPrivateKey,
  generateDiscloserTokenKeys,
} from './discloser-token';

const keys = generateDiscloserTokenKeys();
const signer = createDiscloserTokenSigner(keys.privateKeyPem);
const verifier = createDiscloserTokenVerifier(keys.publicKeyPem);
const claims = { incidentId: randomUUID(), companyId: randomUUID() };
const request = (authorization?: string) =>
  ({ headers: authorization === undefined ? {} : { authorization } }) as Request;

describe('discloser session tokens', () => {
  test('when a token is signed, then the public key verifies it and gives back the incident and company', async () => {
    const { token, expiresAt } = await signer.sign(claims);
    const principal = await verifier.verifyRequest(request(`Bearer ${token}`));
    expect(principal).toEqual({ ...claims, expiresAt });
    expect(expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(30 * 60 * 1000);
  });

  test('when the signer is given PEM with escaped line breaks (as in an environment variable), then it signs all the same', async () => {
    const escaped = createDiscloserTokenSigner(keys.privateKeyPem.replace(/\n/g, '\\n'));
    const { token } = await escaped.sign(claims);
    await expect(verifier.verify(token)).resolves.toMatchObject(claims);
    expect(escaped.publicKeyPem).toBe(keys.publicKeyPem);
  });

  test('when a token is signed by another key, expired, altered or missing, then it is refused with 401', async () => {
    const other = createDiscloserTokenSigner(generateDiscloserTokenKeys().privateKeyPem);
    const foreign = (await other.sign(claims)).token;
    const expired = (await createDiscloserTokenSigner(keys.privateKeyPem, { lifetimeSeconds: -10 }).sign(claims)).token;
    const { token } = await signer.sign(claims);
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
    const unscoped = await new SignJWT({ company_id: claims.companyId })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer('whistle-incident')
      .setAudience('whistle-discloser')
      .setSubject(claims.incidentId)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(discloserTokenPrivateKey(keys.privateKeyPem));
    await expect(verifier.verify(unscoped)).rejects.toBeInstanceOf(AuthenticationError);
  });

  test('when a key is not an EC P-256 PEM, then configuration fails without echoing it', () => {
    expect(() => createDiscloserTokenSigner('not a key')).toThrow(ConfigError);
    expect(() => createDiscloserTokenVerifier(keys.privateKeyPem.replace('PRIVATE', 'PUBLIC'))).toThrow(ConfigError);
    try {
      createDiscloserTokenSigner('secret-material');
    } catch (error) {
      expect((error as Error).message).not.toContain('secret-material');
    }
  });
});
