import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import {
  DISCLOSER_TOKEN_ALGORITHM,
  DISCLOSER_TOKEN_AUDIENCE,
  DISCLOSER_TOKEN_ISSUER,
  DISCLOSER_TOKEN_LIFETIME_SECONDS,
  DISCLOSER_TOKEN_SCOPE,
  p256KeyFromPem,
} from '../discloser-token';

/** A fresh EC P-256 key pair as a Secret holds it: PKCS#8 private PEM, SPKI public PEM. */
export function generateDiscloserTokenKeys(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/**
 * A discloser token with the claims the incident service signs (only it issues real ones), for tests
 * of the code that verifies them: this package's verifier, the file service.
 */
export async function signDiscloserToken(
  privateKeyPem: string,
  { incidentId, companyId }: { incidentId: string; companyId: string },
  {
    lifetimeSeconds = DISCLOSER_TOKEN_LIFETIME_SECONDS,
    scope = DISCLOSER_TOKEN_SCOPE,
  }: { lifetimeSeconds?: number; /** null: no scope claim */ scope?: string | null } = {},
): Promise<string> {
  const issuedAt = Math.floor(Date.now() / 1000);
  return new SignJWT({ company_id: companyId, ...(scope === null ? {} : { scope }) })
    .setProtectedHeader({ alg: DISCLOSER_TOKEN_ALGORITHM, typ: 'JWT' })
    .setIssuer(DISCLOSER_TOKEN_ISSUER)
    .setAudience(DISCLOSER_TOKEN_AUDIENCE)
    .setSubject(incidentId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + lifetimeSeconds)
    .sign(p256KeyFromPem(privateKeyPem, 'private', 'the test key'));
}
