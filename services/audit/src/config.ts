import { z } from 'zod';
import { platformConfigSchema } from '@whistle/service-kit';

export const auditConfigSchema = platformConfigSchema.safeExtend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8085),
  /** auth's staff-token public key (SPKI PEM or JWK): the audit endpoints are for a company's admins. */
  TOKEN_PUBLIC_KEY: z.string({ error: 'TOKEN_PUBLIC_KEY is required (auth’s staff-token public key)' }).min(1),
});
export type AuditConfig = z.infer<typeof auditConfigSchema>;
