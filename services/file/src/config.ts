import { z } from 'zod';
import { platformConfigSchema } from '@whistle/service-kit';

const positive = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const fileConfigSchema = platformConfigSchema.safeExtend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8083),
  /**
   * Public half (SPKI PEM; `\n` escapes allowed) of the incident service's DISCLOSER_TOKEN_PRIVATE_KEY:
   * verifies the discloser session tokens that open an incident's files.
   */
  DISCLOSER_TOKEN_PUBLIC_KEY: z
    .string({ error: 'DISCLOSER_TOKEN_PUBLIC_KEY is required (EC P-256 public key, SPKI PEM)' })
    .min(1),
  /** Files attached to one message (or to the report itself), by anyone (docs/security.md, "Upload limits"). */
  FILES_PER_MESSAGE_MAX: positive(10),
  /** Files of one case, all messages together. */
  FILES_PER_INCIDENT_MAX: positive(100),
  /** Bytes (of plaintext, as declared and checked) of all the files of one case. */
  BYTES_PER_INCIDENT_MAX: positive(500_000_000),
  /** Files a case's discloser uploads per hour, counted in the database (every replica, every token). */
  UPLOAD_LIMIT_PER_INCIDENT: positive(30),
  /** Files disclosers upload per client address per hour, whatever the case. */
  UPLOAD_LIMIT_PER_CLIENT: positive(60),
  /**
   * The key the per-address upload counters are HMAC-ed with, the same in every replica (so they count together in
   * PostgreSQL) and absent from a database dump (so the counters name no address). Without it the object store's
   * secret key serves; without either (S3 by cloud identity, or files on disk) each process counts alone.
   */
  UPLOAD_LIMIT_KEY: z
    .string()
    .min(32, 'UPLOAD_LIMIT_KEY must be at least 32 characters (e.g. openssl rand -base64 32)')
    .optional(),
  /**
   * How long an upload naming a message waits for the incident service's `incident.message.created` to reach
   * this service (the browser sends the files right after the message) before it is refused as unknown.
   */
  UPLOAD_MESSAGE_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
});
export type FileConfig = z.infer<typeof fileConfigSchema>;
