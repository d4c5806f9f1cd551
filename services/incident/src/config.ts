import { z } from 'zod';
import { platformConfigSchema } from '@whistle/service-kit';

const perWindow = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const incidentConfigSchema = platformConfigSchema.safeExtend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8082),
  /**
   * EC P-256 private key (PKCS#8 PEM; `\n` escapes allowed) signing discloser session tokens. The file
   * service verifies them with the public half (its DISCLOSER_TOKEN_PUBLIC_KEY). From a Secret, never a default.
   */
  DISCLOSER_TOKEN_PRIVATE_KEY: z
    .string({ error: 'DISCLOSER_TOKEN_PRIVATE_KEY is required (EC P-256 private key, PKCS#8 PEM)' })
    .min(1),
  /** auth's staff-token public key (SPKI PEM or JWK): staff read and move cases with auth's tokens. */
  TOKEN_PUBLIC_KEY: z.string({ error: 'TOKEN_PUBLIC_KEY is required (auth’s staff-token public key)' }).min(1),
  /** Reports accepted per client address per hour. */
  REPORT_LIMIT_PER_CLIENT: perWindow(10),
  /** Reports accepted per company per hour, whoever sends them. */
  REPORT_LIMIT_PER_COMPANY: perWindow(300),
  /** Retrieval attempts (right or wrong) per client address per 15 minutes. */
  RETRIEVAL_LIMIT_PER_CLIENT: perWindow(20),
  /** Failed retrieval attempts per company per 15 minutes, from anywhere: bounds distributed guessing. */
  RETRIEVAL_FAILURE_LIMIT_PER_COMPANY: perWindow(200),
});
export type IncidentConfig = z.infer<typeof incidentConfigSchema>;
