import { z } from 'zod';
import { platformConfigSchema } from '@whistle/service-kit';

export const authConfigSchema = platformConfigSchema.safeExtend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  /** 32 random bytes, base64: wraps company passphrases (envelope encryption). From a Secret/KMS, never from the database. */
  KEY_ENCRYPTION_KEY: z
    .string({ error: 'KEY_ENCRYPTION_KEY is required (32 random bytes, base64)' })
    .refine((value) => Buffer.from(value, 'base64').length === 32, 'KEY_ENCRYPTION_KEY must be 32 bytes, base64-encoded'),
  /** Comma-separated e-mail domains refused at onboarding, on top of the built-in public webmail list. */
  ONBOARDING_BLOCKED_EMAIL_DOMAINS: z
    .string()
    .default('')
    .transform((list) => list.split(',').map((domain) => domain.trim().toLowerCase()).filter(Boolean)),
});

export type AuthConfig = z.infer<typeof authConfigSchema>;
