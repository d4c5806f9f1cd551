import { createPublicKey } from 'node:crypto';
import { SignJWT } from 'jose';
import {
  DISCLOSER_TOKEN_ALGORITHM,
  DISCLOSER_TOKEN_AUDIENCE,
  DISCLOSER_TOKEN_ISSUER,
  DISCLOSER_TOKEN_LIFETIME_SECONDS,
  DISCLOSER_TOKEN_SCOPE,
  p256KeyFromPem,
} from '@whistle/tokens';

/** Signs discloser session tokens: only the incident service issues them, after the secret code was proven. */
export interface DiscloserTokenSigner {
  sign(claims: { incidentId: string; companyId: string }): Promise<{ token: string; expiresAt: Date }>;
  /** The matching public key (SPKI PEM), so the incident service verifies its own tokens. */
  readonly publicKeyPem: string;
}

/** From DISCLOSER_TOKEN_PRIVATE_KEY (EC P-256, PKCS#8 PEM); the file service verifies with the public half. */
export function createDiscloserTokenSigner(
  privateKeyPem: string,
  { lifetimeSeconds = DISCLOSER_TOKEN_LIFETIME_SECONDS } = {},
): DiscloserTokenSigner {
  const key = p256KeyFromPem(privateKeyPem, 'private', 'DISCLOSER_TOKEN_PRIVATE_KEY');
  return {
    publicKeyPem: createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString(),
    async sign({ incidentId, companyId }) {
      const issuedAt = Math.floor(Date.now() / 1000);
      const expiresAt = issuedAt + lifetimeSeconds;
      const token = await new SignJWT({ company_id: companyId, scope: DISCLOSER_TOKEN_SCOPE })
        .setProtectedHeader({ alg: DISCLOSER_TOKEN_ALGORITHM, typ: 'JWT' })
        .setIssuer(DISCLOSER_TOKEN_ISSUER)
        .setAudience(DISCLOSER_TOKEN_AUDIENCE)
        .setSubject(incidentId)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(key);
      return { token, expiresAt: new Date(expiresAt * 1000) };
    },
  };
}
