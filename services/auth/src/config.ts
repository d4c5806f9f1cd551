import { z } from 'zod';
import { platformConfigSchema } from '@whistle/service-kit';
import { signingKeyFrom } from './domain/tokens/token-issuer';

/** A comma-separated list of e-mail domains, lower-cased. */
const domainList = z
  .string()
  .default('')
  .transform((list) =>
    list
      .split(',')
      .map((domain) => domain.trim().toLowerCase())
      .filter(Boolean),
  );

export const authConfigSchema = platformConfigSchema.safeExtend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  /** 32 random bytes, base64: wraps TOTP secrets and keys the rate limits (docs/security.md, what the KEK still does). From a Secret/KMS, never from the database. */
  KEY_ENCRYPTION_KEY: z
    .string({ error: 'KEY_ENCRYPTION_KEY is required (32 random bytes, base64)' })
    .refine(
      (value) => Buffer.from(value, 'base64').length === 32,
      'KEY_ENCRYPTION_KEY must be 32 bytes, base64-encoded',
    ),
  /**
   * Signs staff access tokens (ES256): an EC P-256 private key as PKCS#8 PEM or as a private JWK (JSON).
   * From a Secret, never from the database; the public half is served at /api/account/token/jwks.
   */
  TOKEN_SIGNING_KEY: z
    .string({ error: 'TOKEN_SIGNING_KEY is required (EC P-256 private key, PKCS#8 PEM or JWK)' })
    .refine((value) => {
      try {
        signingKeyFrom(value);
        return true;
      } catch {
        return false;
      }
    }, 'TOKEN_SIGNING_KEY must be an EC P-256 private key, PKCS#8 PEM or JWK'),
  /**
   * When passwords from before people held keys stop being accepted at sign-in (ISO date-time). Until then such an
   * account's next sign-in migrates it; after, its owner resets the password by e-mail. Unset: no end.
   */
  LEGACY_PASSWORD_SIGN_IN_UNTIL: z.iso
    .datetime({ offset: true, error: 'LEGACY_PASSWORD_SIGN_IN_UNTIL must be an ISO date-time' })
    .transform((value) => new Date(value))
    .optional(),
  /** Comma-separated e-mail domains refused at onboarding, on top of the built-in public webmail list. */
  ONBOARDING_BLOCKED_EMAIL_DOMAINS: domainList,
  /**
   * Who may register a company (docs/operations.md "Onboarding"): `open` (any organisation's address), `allowlist`
   * (only ONBOARDING_ALLOWED_EMAIL_DOMAINS) or `closed` (nobody: the onboarding page says so).
   */
  ONBOARDING_MODE: z
    .enum(['open', 'allowlist', 'closed'], {
      error: 'ONBOARDING_MODE must be open, allowlist or closed',
    })
    .default('open'),
  /** Comma-separated e-mail domains that may register a company when ONBOARDING_MODE is `allowlist`. */
  ONBOARDING_ALLOWED_EMAIL_DOMAINS: domainList,
  /** Registrations mailed to one address per hour: each sends that address a confirmation link. */
  ONBOARDING_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(3),
});

export type AuthConfig = z.infer<typeof authConfigSchema>;
