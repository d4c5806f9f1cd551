import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { Request } from 'express';
import { errors as joseErrors, jwtVerify } from 'jose';
import { AuthenticationError, ConfigError } from '@whistle/service-kit';

/**
 * Discloser session tokens: a discloser has no account, so after proving the secret code the
 * incident service hands out a short-lived token for that one incident. The incident service signs
 * with its private key (its own code: only it issues them); the file service and the incident
 * service itself verify with the public key, here.
 */
export const DISCLOSER_TOKEN_ISSUER = 'whistle-incident';
export const DISCLOSER_TOKEN_AUDIENCE = 'whistle-discloser';
export const DISCLOSER_TOKEN_ALGORITHM = 'ES256';
export const DISCLOSER_TOKEN_SCOPE = 'discloser';
/** Long enough for a review session, short enough that a token left in a shared browser soon dies. */
export const DISCLOSER_TOKEN_LIFETIME_SECONDS = 30 * 60;

/** The incident a verified discloser token opens. */
export interface DiscloserPrincipal {
  incidentId: string;
  companyId: string;
  expiresAt: Date;
}

export interface DiscloserTokenVerifier {
  /** Throws AuthenticationError (401) for anything but a valid, unexpired discloser token. */
  verify(token: string): Promise<DiscloserPrincipal>;
  /** Reads `Authorization: Bearer <token>`; 401 when it is missing or not a valid discloser token. */
  verifyRequest(req: Request): Promise<DiscloserPrincipal>;
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

export function createDiscloserTokenVerifier(publicKeyPem: string): DiscloserTokenVerifier {
  const key = p256KeyFromPem(publicKeyPem, 'public', 'DISCLOSER_TOKEN_PUBLIC_KEY');
  const verify = async (token: string): Promise<DiscloserPrincipal> => {
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
    // A staff token signed elsewhere could never pass the key check, but the scope makes the intent explicit.
    if (payload.scope !== DISCLOSER_TOKEN_SCOPE || typeof payload.company_id !== 'string')
      throw new AuthenticationError();
    return { incidentId: payload.sub!, companyId: payload.company_id, expiresAt: new Date(payload.exp! * 1000) };
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
