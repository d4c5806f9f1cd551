import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: challenge ids, reset and invitation links, SSO codes. */
export function newOneTimeSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: hashOfSecret(secret) };
}

/** Only this is stored. A fast hash is enough: the secret is random, not a human's password. */
export function hashOfSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}
