import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import {
  DISCLOSER_TOKEN_ALGORITHM,
  DISCLOSER_TOKEN_AUDIENCE,
  DISCLOSER_TOKEN_ISSUER,
  DISCLOSER_TOKEN_LIFETIME_SECONDS,
  DISCLOSER_TOKEN_SCOPE,
  STAFF_FILE_TOKEN_SCOPE,
  p256KeyFromPem,
} from '../incident-session-token';
import { STAFF_TOKEN_ALGORITHM, STAFF_TOKEN_AUDIENCE, STAFF_TOKEN_ISSUER } from '../staff-token';

/** A fresh EC P-256 key pair as a Secret holds it: PKCS#8 private PEM, SPKI public PEM. */
export function generateDiscloserTokenKeys(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/**
 * An incident session token with the claims the incident service signs (only it issues real ones), for
 * tests of the code that verifies them: this package's verifier, the file service. A discloser's by
 * default; a staff member's file token with `staffUserId`.
 */
export async function signDiscloserToken(
  privateKeyPem: string,
  { incidentId, companyId, staffUserId }: { incidentId: string; companyId: string; staffUserId?: string },
  {
    lifetimeSeconds = DISCLOSER_TOKEN_LIFETIME_SECONDS,
    scope = staffUserId ? STAFF_FILE_TOKEN_SCOPE : DISCLOSER_TOKEN_SCOPE,
  }: { lifetimeSeconds?: number; /** null: no scope claim */ scope?: string | null } = {},
): Promise<string> {
  const issuedAt = Math.floor(Date.now() / 1000);
  return new SignJWT({
    company_id: companyId,
    ...(scope === null ? {} : { scope }),
    ...(staffUserId ? { user_id: staffUserId } : {}),
  })
    .setProtectedHeader({ alg: DISCLOSER_TOKEN_ALGORITHM, typ: 'JWT' })
    .setIssuer(DISCLOSER_TOKEN_ISSUER)
    .setAudience(DISCLOSER_TOKEN_AUDIENCE)
    .setSubject(incidentId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + lifetimeSeconds)
    .sign(p256KeyFromPem(privateKeyPem, 'private', 'the test key'));
}

/**
 * A staff access token with the claims auth signs (only auth issues real ones), for tests of the services
 * that verify them; `privateKeyPem` is the test stand-in for TOKEN_SIGNING_KEY (`generateDiscloserTokenKeys()`
 * makes a suitable pair: the same curve and format).
 */
export async function signStaffToken(
  privateKeyPem: string,
  staff: {
    userId: string;
    companyId: string;
    roles: readonly string[];
    jti?: string;
    issuedAt?: number;
    /** The sign-in the token belongs to (seconds), as refreshed tokens carry it; absent, the token is its own. */
    authTime?: number;
    mfa?: boolean;
    /** Signed in, but MFA set-up is due: staff routes answer 403 until it is done. */
    mfaEnrollmentRequired?: boolean;
  },
): Promise<string> {
  const issuedAt = staff.issuedAt ?? Math.floor(Date.now() / 1000);
  return new SignJWT({
    company_id: staff.companyId,
    roles: [...staff.roles],
    mfa: staff.mfa ?? true,
    ...(staff.authTime === undefined ? {} : { auth_time: staff.authTime }),
    ...(staff.mfaEnrollmentRequired ? { mfa_enrollment_required: true } : {}),
  })
    .setProtectedHeader({ alg: STAFF_TOKEN_ALGORITHM, typ: 'JWT' })
    .setIssuer(STAFF_TOKEN_ISSUER)
    .setAudience(STAFF_TOKEN_AUDIENCE)
    .setSubject(staff.userId)
    .setJti(staff.jti ?? randomUUID())
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + 15 * 60)
    .sign(p256KeyFromPem(privateKeyPem, 'private', 'the test key'));
}
