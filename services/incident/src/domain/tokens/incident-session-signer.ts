import { createPublicKey } from 'node:crypto';
import { SignJWT } from 'jose';
import {
  DISCLOSER_TOKEN_ALGORITHM,
  DISCLOSER_TOKEN_AUDIENCE,
  DISCLOSER_TOKEN_ISSUER,
  DISCLOSER_TOKEN_LIFETIME_SECONDS,
  DISCLOSER_TOKEN_SCOPE,
  STAFF_FILE_TOKEN_LIFETIME_SECONDS,
  STAFF_FILE_TOKEN_SCOPE,
  p256KeyFromPem,
} from '@whistle/tokens';

export interface SignedToken {
  token: string;
  expiresAt: Date;
}

/**
 * Signs incident session tokens: only the incident service issues them — a discloser's once the secret
 * code was proven, a staff member's file token once their access to the case was checked.
 */
export interface IncidentSessionSigner {
  signDiscloser(claims: { incidentId: string; companyId: string }): Promise<SignedToken>;
  signStaffFiles(claims: { incidentId: string; companyId: string; userId: string }): Promise<SignedToken>;
  /** The matching public key (SPKI PEM), so the incident service verifies its own tokens. */
  readonly publicKeyPem: string;
}

/** From DISCLOSER_TOKEN_PRIVATE_KEY (EC P-256, PKCS#8 PEM); the file service verifies with the public half. */
export function createIncidentSessionSigner(
  privateKeyPem: string,
  {
    discloserLifetimeSeconds = DISCLOSER_TOKEN_LIFETIME_SECONDS,
    staffLifetimeSeconds = STAFF_FILE_TOKEN_LIFETIME_SECONDS,
  } = {},
): IncidentSessionSigner {
  const key = p256KeyFromPem(privateKeyPem, 'private', 'DISCLOSER_TOKEN_PRIVATE_KEY');
  async function sign(
    incidentId: string,
    claims: Record<string, string>,
    lifetimeSeconds: number,
  ): Promise<SignedToken> {
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = issuedAt + lifetimeSeconds;
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: DISCLOSER_TOKEN_ALGORITHM, typ: 'JWT' })
      .setIssuer(DISCLOSER_TOKEN_ISSUER)
      .setAudience(DISCLOSER_TOKEN_AUDIENCE)
      .setSubject(incidentId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(key);
    return { token, expiresAt: new Date(expiresAt * 1000) };
  }
  return {
    publicKeyPem: createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString(),
    signDiscloser: ({ incidentId, companyId }) =>
      sign(incidentId, { company_id: companyId, scope: DISCLOSER_TOKEN_SCOPE }, discloserLifetimeSeconds),
    signStaffFiles: ({ incidentId, companyId, userId }) =>
      sign(incidentId, { company_id: companyId, scope: STAFF_FILE_TOKEN_SCOPE, user_id: userId }, staffLifetimeSeconds),
  };
}
