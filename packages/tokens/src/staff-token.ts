import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { errors as joseErrors, jwtVerify } from 'jose';
import type { Role } from '@whistle/contracts';
import { asTenant, AuthenticationError, NotAllowedError } from '@whistle/service-kit';

/** Fixed by the auth service that signs staff tokens; any other issuer, audience or algorithm is refused. */
export const STAFF_TOKEN_ISSUER = 'whistle-auth';
export const STAFF_TOKEN_AUDIENCE = 'whistle-staff';
export const STAFF_TOKEN_ALGORITHM = 'ES256';

/** Who is calling, as the verified token says. */
export interface StaffPrincipal {
  userId: string;
  companyId: string;
  roles: Role[];
  /** The second factor was verified in this sign-in. */
  mfa: boolean;
  /** The company requires MFA and this user has none yet: only enrolment endpoints accept the token. */
  mfaEnrollmentRequired: boolean;
  tokenId: string;
  issuedAt: Date;
  /** When the user signed in; refreshed tokens keep it. */
  authenticatedAt: Date;
  expiresAt: Date;
}

export interface StaffTokenVerifier {
  /** Throws AuthenticationError (401) for anything but a valid, unexpired, unrevoked staff token. */
  verify(token: string): Promise<StaffPrincipal>;
}

export interface StaffTokenVerifierOptions {
  /** The auth service's public key: SPKI PEM, a JWK (object or JSON text), or a KeyObject. */
  publicKey: string | JsonWebKey | KeyObject;
  /** Consulted after the signature checks out: the service's revocation list (`revocationListFor`). */
  isRevoked?(principal: StaffPrincipal): boolean | Promise<boolean>;
}

const roles = new Set<Role>(['ADMIN', 'REVIEWER', 'HANDLER']);

function publicKeyObject(key: StaffTokenVerifierOptions['publicKey']): KeyObject {
  if (typeof key !== 'string' && 'type' in key && typeof key.export === 'function') return key as KeyObject;
  if (typeof key === 'string' && key.trim().startsWith('-----BEGIN')) return createPublicKey(key);
  const jwk = typeof key === 'string' ? (JSON.parse(key) as JsonWebKey) : (key as JsonWebKey);
  // Only the public half is kept, even when a private JWK is handed over by mistake.
  const { d: _private, ...publicJwk } = jwk;
  return createPublicKey({ key: publicJwk, format: 'jwk' });
}

/** Verifies staff access tokens with the auth service's public key: every service can, none can mint one. */
export function createStaffTokenVerifier({ publicKey, isRevoked }: StaffTokenVerifierOptions): StaffTokenVerifier {
  const key = publicKeyObject(publicKey);
  return {
    async verify(token) {
      let payload;
      try {
        ({ payload } = await jwtVerify(token, key, {
          algorithms: [STAFF_TOKEN_ALGORITHM],
          issuer: STAFF_TOKEN_ISSUER,
          audience: STAFF_TOKEN_AUDIENCE,
          requiredClaims: ['sub', 'jti', 'exp', 'iat'],
        }));
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) throw new AuthenticationError();
        throw error;
      }
      const claimedRoles = payload.roles;
      if (
        typeof payload.company_id !== 'string' ||
        !Array.isArray(claimedRoles) ||
        !claimedRoles.every((role) => roles.has(role))
      ) {
        throw new AuthenticationError();
      }
      const principal: StaffPrincipal = {
        userId: payload.sub!,
        companyId: payload.company_id,
        roles: claimedRoles as Role[],
        mfa: payload.mfa === true,
        mfaEnrollmentRequired: payload.mfa_enrollment_required === true,
        tokenId: payload.jti!,
        issuedAt: new Date(payload.iat! * 1000),
        authenticatedAt: new Date((typeof payload.auth_time === 'number' ? payload.auth_time : payload.iat!) * 1000),
        expiresAt: new Date(payload.exp! * 1000),
      };
      if (isRevoked && (await isRevoked(principal))) throw new AuthenticationError();
      return principal;
    },
  };
}

/** The Bearer credential of a request, or undefined. */
export function bearerToken(req: Request): string | undefined {
  const match = /^Bearer +(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

export interface RequireStaffOptions {
  /** Any one of these roles is enough; all staff when absent. */
  roles?: readonly Role[];
  /** Let a token whose user still has to set up the MFA the company requires through (enrolment, own profile, logout). */
  allowMfaEnrollment?: boolean;
}

const principals = new WeakMap<Request, StaffPrincipal>();

/**
 * Express middleware: 401 without a valid staff token, 403 when the roles do not fit or MFA set-up
 * is still due. Handlers then read the caller with `staffOf(req)`; its companyId scopes every query, and the
 * handlers run in its tenant scope, so a query that forgets it still sees no other company's rows.
 */
export function requireStaff(
  verifier: StaffTokenVerifier,
  { roles: allowed, allowMfaEnrollment = false }: RequireStaffOptions = {},
): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const token = bearerToken(req);
    if (!token) {
      next(new AuthenticationError());
      return;
    }
    verifier
      .verify(token)
      .then((principal) => {
        if (principal.mfaEnrollmentRequired && !allowMfaEnrollment) throw new NotAllowedError('MFA setup required');
        if (allowed && !principal.roles.some((role) => allowed.includes(role))) throw new NotAllowedError();
        principals.set(req, principal);
        // The rest of the request runs as the token's company: the database's second wall (asTenant).
        asTenant(principal.companyId, next);
      }, next)
      .catch(next);
  };
}

/** The caller `requireStaff` verified; throws if the route forgot the middleware. */
export function staffOf(req: Request): StaffPrincipal {
  const principal = principals.get(req);
  if (!principal) throw new Error('staffOf() on a route without requireStaff()');
  return principal;
}
