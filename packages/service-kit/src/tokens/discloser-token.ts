import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { Request } from 'express';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { AuthenticationError, ConfigError } from '../errors/errors';

/**
 * Discloser session tokens: a discloser has no account, so after proving the secret code the
 * incident service hands out a short-lived token for that one incident. The incident service signs
 * with its private key; the file service (and the incident service itself) verify with the public key.
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

export interface DiscloserTokenSigner {
  sign(claims: { incidentId: string; companyId: string }): Promise<{ token: string; expiresAt: Date }>;
  /** The matching public key (SPKI PEM), so the signing service can verify its own tokens. */
  readonly publicKeyPem: string;
}

export interface DiscloserTokenVerifier {
  /** Throws AuthenticationError (401) for anything but a valid, unexpired discloser token. */
  verify(token: string): Promise<DiscloserPrincipal>;
  /** Reads `Authorization: Bearer <token>`; 401 when it is missing or not a valid discloser token. */
  verifyRequest(req: Request): Promise<DiscloserPrincipal>;
}

/** PEM given through an environment variable may carry `\n` escapes instead of line breaks. */
function pemOf(value: string): string {
  return value.includes('\\n') ? value.replace(/\\n/g, '\n') : value;
}

function assertP256(key: KeyObject, what: string): KeyObject {
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new ConfigError(`${what} must be an EC P-256 key (ES256)`);
  }
  return key;
}

/** Parses a PKCS#8 PEM private key for signing; ConfigError (without the key) when it is not one. */
export function discloserTokenPrivateKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pemOf(pem));
  } catch {
    throw new ConfigError('DISCLOSER_TOKEN_PRIVATE_KEY is not a PEM private key');
  }
  return assertP256(key, 'DISCLOSER_TOKEN_PRIVATE_KEY');
}

/** Parses an SPKI PEM public key for verifying; ConfigError when it is not one. */
export function discloserTokenPublicKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pemOf(pem));
  } catch {
    throw new ConfigError('DISCLOSER_TOKEN_PUBLIC_KEY is not a PEM public key');
  }
  return assertP256(key, 'DISCLOSER_TOKEN_PUBLIC_KEY');
}

/** A fresh key pair as PEM text (PKCS#8 private, SPKI public): for tests and the standalone's secrets folder. */
export function generateDiscloserTokenKeys(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export function createDiscloserTokenSigner(
  privateKeyPem: string,
  { lifetimeSeconds = DISCLOSER_TOKEN_LIFETIME_SECONDS } = {},
): DiscloserTokenSigner {
  const key = discloserTokenPrivateKey(privateKeyPem);
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

const bearer = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/;

export function createDiscloserTokenVerifier(publicKeyPem: string): DiscloserTokenVerifier {
  const key = discloserTokenPublicKey(publicKeyPem);
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
