import { z } from 'zod';
import { platformConfigSchema } from '@whistle/service-kit';

export const fileConfigSchema = platformConfigSchema.safeExtend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8083),
  /**
   * Public half (SPKI PEM; `\n` escapes allowed) of the incident service's DISCLOSER_TOKEN_PRIVATE_KEY:
   * verifies the discloser session tokens that open an incident's files.
   */
  DISCLOSER_TOKEN_PUBLIC_KEY: z
    .string({ error: 'DISCLOSER_TOKEN_PUBLIC_KEY is required (EC P-256 public key, SPKI PEM)' })
    .min(1),
});
export type FileConfig = z.infer<typeof fileConfigSchema>;
