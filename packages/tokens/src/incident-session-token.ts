import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { Request } from 'express';
import { errors as joseErrors, jwtVerify } from 'jose';
import { AuthenticationError, ConfigError } from '@whistle/service-kit';

/**
 * Incident session tokens, each for one incident, signed by the incident service (its own code: only it
 * issues them) with DISCLOSER_TOKEN_PRIVATE_KEY; the file service and the incident service itself verify
 * them with the public key, here. Two kinds:
 * - a discloser's session: a discloser has no account, so after proving the secret code they get a
 *   short-lived token for that one incident (scope `discloser`);
 * - a staff member's file token: the file service cannot tell who may open which case, so the incident
 *   service, having checked it, hands staff a short-lived token for that case's files (scope `staff`,
 *   with the user id, so the file service can say who downloaded what).
 */
export const DISCLOSER_TOKEN_ISSUER = 'whistle-incident';
export const DISCLOSER_TOKEN_AUDIENCE = 'whistle-discloser';
export const DISCLOSER_TOKEN_ALGORITHM = 'ES256';
export const DISCLOSER_TOKEN_SCOPE = 'discloser';
export const STAFF_FILE_TOKEN_SCOPE = 'staff';
/** Long enough for a review session, short enough that a token left in a shared browser soon dies. */
export const DISCLOSER_TOKEN_LIFETIME_SECONDS = 30 * 60;
/** A staff file token is fetched again with the case; losing access takes effect by then at the latest. */
export const STAFF_FILE_TOKEN_LIFETIME_SECONDS = 10 * 60;

/** Who an incident session token lets act, on which incident. */
export interface IncidentSessionPrincipal {
  incidentId: string;
  companyId: string;
  expiresAt: Date;
  actor: { type: 'DISCLOSER' } | { type: 'STAFF'; userId: string };
}

export interface IncidentSessionVerifier {
  /** Throws AuthenticationError (401) for anything but a valid, unexpired incident session token. */
  verify(token: string): Promise<IncidentSessionPrincipal>;
  /** Reads `Authorization: Bearer <token>`; 401 when it is missing or not a valid incident session token. */
  verifyRequest(req: Request): Promise<IncidentSessionPrincipal>;
}

/**
 * Parses an EC P-256 key (ES256) given as PEM through the environment variable `variable`, where it
 * may carry `\n` escapes instead of line breaks: PKCS#8 for a private key, SPKI for a public one.
 * ConfigError naming the variable (never echoing the key) when it is not one.
 */
export function p256KeyFromPem(value: string, type: 'private' | 'public', variable: string): KeyObject {
  const pem = value.includes('\\n') ? value.replace(/\\n/g, '\n') : value;
  let key: KeyObject;
  try {
    key = type === 'private' ? createPrivateKey(pem) : createPublicKey(pem);
  } catch {
    throw new ConfigError(`${variable} is not a PEM ${type} key`);
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new ConfigError(`${variable} must be an EC P-256 key (ES256)`);
  }
  return key;
}

const bearer = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface IncidentSessionVerifierOptions {
  /**
   * Consulted for a staff file token once its signature checks out: the verifying service's revocation list, so a
   * removed user's, or one whose password or roles changed, file tokens die with their staff tokens.
   */
  isStaffRevoked?(token: { userId: string; issuedAt: Date }): Promise<boolean>;
}

export function createIncidentSessionVerifier(
  publicKeyPem: string,
  { isStaffRevoked }: IncidentSessionVerifierOptions = {},
): IncidentSessionVerifier {
  const key = p256KeyFromPem(publicKeyPem, 'public', 'DISCLOSER_TOKEN_PUBLIC_KEY');
  const verify = async (token: string): Promise<IncidentSessionPrincipal> => {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, key, {
        algorithms: [DISCLOSER_TOKEN_ALGORITHM],
        issuer: DISCLOSER_TOKEN_ISSUER,
        audience: DISCLOSER_TOKEN_AUDIENCE,
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) throw new AuthenticationError();
      throw error;
    }
    // A staff access token signed elsewhere could never pass the key check, but the scope makes the intent explicit.
    if (typeof payload.company_id !== 'string') throw new AuthenticationError();
    const session = {
      incidentId: payload.sub!,
      companyId: payload.company_id,
      expiresAt: new Date(payload.exp! * 1000),
    };
    if (payload.scope === DISCLOSER_TOKEN_SCOPE) return { ...session, actor: { type: 'DISCLOSER' } };
    if (payload.scope === STAFF_FILE_TOKEN_SCOPE && typeof payload.user_id === 'string' && UUID.test(payload.user_id)) {
      const userId = payload.user_id;
      if (isStaffRevoked && (await isStaffRevoked({ userId, issuedAt: new Date(payload.iat! * 1000) })))
        throw new AuthenticationError();
      return { ...session, actor: { type: 'STAFF', userId } };
    }
    throw new AuthenticationError();
  };
  return {
    verify,
    async verifyRequest(req) {
      const match = bearer.exec(req.headers.authorization ?? '');
      if (!match) throw new AuthenticationError();
      return verify(match[1]);
    },
  };
}
