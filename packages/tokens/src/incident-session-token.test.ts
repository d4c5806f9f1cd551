import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { AuthenticationError, ConfigError } from '@whistle/service-kit';
import { createIncidentSessionVerifier, DISCLOSER_TOKEN_LIFETIME_SECONDS } from './incident-session-token';
import { generateDiscloserTokenKeys, signDiscloserToken } from './testing';

const keys = generateDiscloserTokenKeys();
const verifier = createIncidentSessionVerifier(keys.publicKeyPem);
const claims = { incidentId: randomUUID(), companyId: randomUUID() };
const request = (authorization?: string) =>
  ({ headers: authorization === undefined ? {} : { authorization } }) as Request;

describe('incident session tokens', () => {
  test('when a token is signed, then the public key verifies it and gives back the incident and company', async () => {
    const token = await signDiscloserToken(keys.privateKeyPem, claims);
    const principal = await verifier.verifyRequest(request(`Bearer ${token}`));
    expect(principal).toEqual({ ...claims, expiresAt: expect.any(Date), actor: { type: 'DISCLOSER' } });
    expect(principal.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(DISCLOSER_TOKEN_LIFETIME_SECONDS * 1000);
  });

  test('when the public key comes with escaped line breaks (as in an environment variable), then it verifies all the same', async () => {
    const escaped = createIncidentSessionVerifier(keys.publicKeyPem.replace(/\n/g, '\\n'));
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

  test('when a token of the right key lacks a known scope, or a staff one lacks a user id, then it is refused', async () => {
    const unscoped = await signDiscloserToken(keys.privateKeyPem, claims, { scope: null });
    const unknownScope = await signDiscloserToken(keys.privateKeyPem, claims, { scope: 'admin' });
    const staffWithoutUser = await signDiscloserToken(keys.privateKeyPem, claims, { scope: 'staff' });
    for (const bad of [unscoped, unknownScope, staffWithoutUser])
      await expect(verifier.verify(bad)).rejects.toBeInstanceOf(AuthenticationError);
  });

  test('when a staff file token is verified, then it says which staff member acts on which incident', async () => {
    const staffUserId = randomUUID();
    const token = await signDiscloserToken(keys.privateKeyPem, { ...claims, staffUserId });
    await expect(verifier.verify(token)).resolves.toEqual({
      ...claims,
      expiresAt: expect.any(Date),
      actor: { type: 'STAFF', userId: staffUserId },
    });
  });

  test('when the key is not an EC P-256 public PEM, then configuration fails naming the variable without echoing it', () => {
    expect(() => createIncidentSessionVerifier(keys.privateKeyPem.replace('PRIVATE', 'PUBLIC'))).toThrow(ConfigError);
    try {
      createIncidentSessionVerifier('secret-material');
    } catch (error) {
      expect((error as Error).message).toBe('DISCLOSER_TOKEN_PUBLIC_KEY is not a PEM public key');
    }
  });
});
