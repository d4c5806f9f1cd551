import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { Router } from 'express';
import { SignJWT } from 'jose';
import { createRecordingLogger, serveService } from '@whistle/service-kit/testing';
import {
  STAFF_TOKEN_AUDIENCE,
  STAFF_TOKEN_ISSUER,
  createStaffTokenVerifier,
  requireStaff,
  staffOf,
  type StaffPrincipal,
} from './staff-token';

const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const userId = randomUUID();
const companyId = randomUUID();

async function token({
  privateKey = keys.privateKey,
  roles = ['REVIEWER'],
  exp = '5m',
  issuer = STAFF_TOKEN_ISSUER,
  extra = {} as Record<string, unknown>,
  jti = randomUUID(),
} = {}) {
  return new SignJWT({ company_id: companyId, roles, mfa: true, ...extra })
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer(issuer)
    .setAudience(STAFF_TOKEN_AUDIENCE)
    .setSubject(userId)
    .setJti(jti)
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(privateKey);
}

describe('staff tokens', () => {
  const publicPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();

  it('when a token is signed by the auth key, then the verifier returns who is calling', async () => {
    const principal = await createStaffTokenVerifier({ publicKey: publicPem }).verify(
      await token({ roles: ['ADMIN', 'HANDLER'] }),
    );
    expect(principal).toMatchObject({
      userId,
      companyId,
      roles: ['ADMIN', 'HANDLER'],
      mfa: true,
      mfaEnrollmentRequired: false,
    });
  });

  it('when the public key is given as a JWK, then it verifies the same tokens', async () => {
    const jwk = keys.publicKey.export({ format: 'jwk' });
    await expect(
      createStaffTokenVerifier({ publicKey: JSON.stringify(jwk) }).verify(await token()),
    ).resolves.toMatchObject({ userId });
  });

  it.each([
    [
      'signed by another key',
      () => token({ privateKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey }),
    ],
    ['expired', () => token({ exp: '-1s' })],
    ['from another issuer', () => token({ issuer: 'someone-else' })],
    ['carrying an unknown role', () => token({ roles: ['OWNER'] })],
    ['not a JWT', async () => 'garbage'],
  ])('when a token is %s, then it is refused with 401', async (_what, make) => {
    await expect(createStaffTokenVerifier({ publicKey: publicPem }).verify(await make())).rejects.toMatchObject({
      status: 401,
    });
  });

  it('when a route requires a role, then other roles get 403, no token 401, and the right role reaches the handler', async () => {
    const verifier = createStaffTokenVerifier({ publicKey: publicPem });
    const seen: StaffPrincipal[] = [];
    const router = Router();
    router.get('/api/admin-only', requireStaff(verifier, { roles: ['ADMIN'] }), (req, res) => {
      seen.push(staffOf(req));
      res.json({ ok: true });
    });
    router.get('/api/staff', requireStaff(verifier), (_req, res) => void res.json({ ok: true }));
    const service = { name: 'test', router, start: async () => undefined, stop: async () => undefined };
    const server = await serveService(service, createRecordingLogger(), { start: false });
    try {
      const call = async (path: string, bearer?: string) =>
        (await fetch(`${server.baseUrl}${path}`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} }))
          .status;
      expect(await call('/api/admin-only')).toBe(401);
      expect(await call('/api/admin-only', await token({ roles: ['REVIEWER'] }))).toBe(403);
      expect(await call('/api/admin-only', await token({ roles: ['ADMIN'] }))).toBe(200);
      expect(seen).toEqual([expect.objectContaining({ userId, companyId, roles: ['ADMIN'] })]);
      // A user who still has to set up the MFA the company requires reaches nothing but enrolment.
      expect(await call('/api/staff', await token({ extra: { mfa_enrollment_required: true } }))).toBe(403);
    } finally {
      await server.close();
    }
  });
});
