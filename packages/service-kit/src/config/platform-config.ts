import { z } from 'zod';
import { logLevels } from '../logging/logger';

const port = z.coerce.number().int().min(0).max(65535);

/** Express/body-parser size notation: `100kb`, `1mb`, or a byte count. */
const byteSize = z.string().regex(/^\d+(b|kb|mb|gb)?$/i, 'must be a size such as 512kb or 1mb');

/**
 * Keys every service reads. An unset adapter key selects the embedded adapter: no DATABASE_URL →
 * PGlite under DATA_DIR, no AMQP_URL → in-process bus, no S3_BUCKET → files under DATA_DIR, no
 * SMTP_URL → .eml files under DATA_DIR. Secrets have no default.
 *
 * Services add their keys with `platformConfigSchema.extend({ ... })`; to change one of these keys
 * (a default PORT, say) use `.safeExtend`, which keeps the S3 rule below.
 */
export const platformConfigSchema = z
  .object({
    PORT: port.default(8080),
    LOG_LEVEL: z.enum(logLevels).default('info'),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
    AMQP_URL: z.url({ protocol: /^amqps?$/, error: 'must be an amqp:// or amqps:// URL' }).optional(),
    AMQP_EXCHANGE: z.string().default('whistle.events'),
    S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_BUCKET: z.string().optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
    MAIL_FROM: z.string().default('Whistle <no-reply@whistle.local>'),
    /** Base of links in e-mails (no trailing slash needed). */
    PUBLIC_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .default('http://localhost:8080'),
    BODY_LIMIT: byteSize.default('1mb'),
    /**
     * Port of `/metrics` (Prometheus text format), apart from the API port so the Ingress never routes it.
     * Unset: no metrics server (standalone default); the Helm chart and kustomize base set 9464.
     */
    METRICS_PORT: port.optional(),
    /**
     * Express `trust proxy`: set it (e.g. `1` for one ingress hop) when behind a proxy, so
     * rate limits see the client and not the ingress. Unset: the socket address is used.
     */
    TRUST_PROXY: z
      .string()
      .transform((value): boolean | number | string =>
        value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value,
      )
      .optional(),
  })
  .superRefine(
    (config, ctx) => {
      if (!config.S3_BUCKET) return;
      for (const key of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (!config[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when S3_BUCKET is set' });
      }
    },
    // Run even when other keys are invalid, so one start-up reports every problem.
    { when: () => true },
  );

export type PlatformConfig = z.output<typeof platformConfigSchema>;
