import { createPrivateKey, createPublicKey, randomUUID, type JsonWebKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, SignJWT } from 'jose';
import type { Role } from '@whistle/contracts';
import { STAFF_TOKEN_ALGORITHM, STAFF_TOKEN_AUDIENCE, STAFF_TOKEN_ISSUER } from '@whistle/tokens';

/** Access tokens are short-lived: a stolen one is useful for minutes; the browser refreshes while in use. */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 15 * 60;
/** A session (one sign-in) is refreshed for at most this long; then the user signs in again. */
export const SESSION_MAX_SECONDS = 12 * 60 * 60;

export interface TokenSubject {
  userId: string;
  companyId: string;
  roles: Role[];
  mfa: boolean;
  mfaEnrollmentRequired: boolean;
  /** When the user proved who they are (seconds); refreshes keep it, so a session cannot outlive SESSION_MAX_SECONDS. */
  authTime: number;
}

export interface IssuedToken {
  token: string;
  jti: string;
  expiresAt: Date;
}

/** Parses TOKEN_SIGNING_KEY: a PKCS#8 PEM or a private JWK (JSON) of a P-256 key. */
export function signingKeyFrom(value: string): KeyObject {
  const text = value.trim();
  const key = text.startsWith('-----BEGIN')
    ? createPrivateKey(text)
    : createPrivateKey({ key: JSON.parse(text) as JsonWebKey, format: 'jwk' });
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('TOKEN_SIGNING_KEY must be an EC P-256 private key (ES256)');
  }
  return key;
}

/** Signs staff access tokens (ES256). Only the auth service holds the private key; every service verifies with the public one. */
export class TokenIssuer {
  readonly publicKey: KeyObject;
  private readonly kid: Promise<string>;

  constructor(private readonly privateKey: KeyObject) {
    this.publicKey = createPublicKey(privateKey);
    this.kid = calculateJwkThumbprint(this.publicJwk());
  }

  publicJwk(): JsonWebKey & { kty: string } {
    return this.publicKey.export({ format: 'jwk' }) as JsonWebKey & { kty: string };
  }

  async jwks(): Promise<{ keys: object[] }> {
    return { keys: [{ ...this.publicJwk(), kid: await this.kid, alg: STAFF_TOKEN_ALGORITHM, use: 'sig' }] };
  }

  async issue(subject: TokenSubject): Promise<IssuedToken> {
    const jti = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const exp = Math.min(now + ACCESS_TOKEN_LIFETIME_SECONDS, subject.authTime + SESSION_MAX_SECONDS);
    const token = await new SignJWT({
      company_id: subject.companyId,
      roles: subject.roles,
      mfa: subject.mfa,
      ...(subject.mfaEnrollmentRequired ? { mfa_enrollment_required: true } : {}),
      auth_time: subject.authTime,
    })
      .setProtectedHeader({ alg: STAFF_TOKEN_ALGORITHM, kid: await this.kid, typ: 'JWT' })
      .setIssuer(STAFF_TOKEN_ISSUER)
      .setAudience(STAFF_TOKEN_AUDIENCE)
      .setSubject(subject.userId)
      .setJti(jti)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .sign(this.privateKey);
    return { token, jti, expiresAt: new Date(exp * 1000) };
  }
}
