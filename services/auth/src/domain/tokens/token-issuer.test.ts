import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { createStaffTokenVerifier } from '@whistle/tokens';
import { authConfigSchema } from '../../config';
import { ACCESS_TOKEN_LIFETIME_SECONDS, SESSION_MAX_SECONDS, signingKeyFrom, TokenIssuer } from './token-issuer';

const p256 = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const subject = {
  userId: randomUUID(),
  companyId: randomUUID(),
  roles: ['REVIEWER' as const],
  mfa: true,
  mfaEnrollmentRequired: false,
};

describe('token issuer', () => {
  it('when the signing key is a PEM or a private JWK, then both sign tokens the public key verifies', async () => {
    const key = p256();
    for (const text of [
      key.export({ type: 'pkcs8', format: 'pem' }).toString(),
      JSON.stringify(key.export({ format: 'jwk' })),
    ]) {
      const issuer = new TokenIssuer(signingKeyFrom(text));
      const { token } = await issuer.issue({ ...subject, authTime: Math.floor(Date.now() / 1000) });
      const principal = await createStaffTokenVerifier({ publicKey: issuer.publicJwk() }).verify(token);
      expect(principal).toMatchObject({
        userId: subject.userId,
        companyId: subject.companyId,
        roles: ['REVIEWER'],
        mfa: true,
      });
      expect(principal.expiresAt.getTime() - principal.issuedAt.getTime()).toBe(ACCESS_TOKEN_LIFETIME_SECONDS * 1000);
    }
  });

  it('when a session nears its maximum age, then the token expires with the session, not later', async () => {
    const issuer = new TokenIssuer(p256());
    const authTime = Math.floor(Date.now() / 1000) - SESSION_MAX_SECONDS + 60;
    const { expiresAt } = await issuer.issue({ ...subject, authTime });
    expect(expiresAt.getTime()).toBe((authTime + SESSION_MAX_SECONDS) * 1000);
  });

  it('when the JWKS is published, then it holds only the public half', async () => {
    const { keys } = await new TokenIssuer(p256()).jwks();
    expect(keys).toEqual([
      expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: expect.any(String) }),
    ]);
    expect(keys[0]).not.toHaveProperty('d');
  });

  it.each([
    ['missing', undefined, 'TOKEN_SIGNING_KEY is required'],
    [
      'an RSA key',
      generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      'EC P-256',
    ],
    [
      'a public key',
      generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      'EC P-256',
    ],
    ['garbage', 'not a key', 'EC P-256'],
  ])('when TOKEN_SIGNING_KEY is %s, then the configuration is refused', (_what, value, message) => {
    const result = authConfigSchema.safeParse({
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      ...(value === undefined ? {} : { TOKEN_SIGNING_KEY: value }),
    });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain(message);
  });
});
