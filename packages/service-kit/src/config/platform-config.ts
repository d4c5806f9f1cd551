import { z } from 'zod';
import { logLevels } from '../logging/logger';

const port = z.coerce.number().int().min(0).max(65535);

/** Express/body-parser size notation: `100kb`, `1mb`, or a byte count. */
const byteSize = z.string().regex(/^\d+(b|kb|mb|gb)?$/i, 'must be a size such as 512kb or 1mb');

/** A Sentry DSN: `https://<public key>@<host>[/<path>]/<project id>`. */
const sentryDsn = z
  .string()
  .regex(/^https?:\/\/[^@/\s]+@[^/\s]+\/(.+\/)?\d+$/, 'must be a Sentry DSN such as https://key@sentry.example.com/1');

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
    /**
     * PGlite's shared_buffers (PostgreSQL notation: `32MB`), when there is no DATABASE_URL. PostgreSQL touches all
     * of it at start, so it is resident memory from the first second; PGlite reads what it misses from its files
     * through the operating system's cache. Durability does not depend on it.
     */
    PGLITE_SHARED_BUFFERS: z
      .string()
      .regex(/^\d+(kB|MB|GB)$/, 'must be a size such as 32MB')
      .default('32MB'),
    /**
     * `on`: a PGlite commit returns once it is on disk (fsync, as on a PostgreSQL server). `off`: PGlite's own
     * default, fsync off, faster, but a power cut or kernel crash can lose recent commits or corrupt the data
     * folder; for tests and throwaway data only (docs/operations.md).
     */
    PGLITE_FSYNC: z.enum(['on', 'off']).default('on'),
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
     * Error reporting (Sentry SDK, any Sentry-compatible server): the DSN of this service's own reports.
     * Unset: nothing is reported and the SDK is not even loaded (standalone default).
     */
    SENTRY_DSN: sentryDsn.optional(),
    /**
     * DSN the browser reports to, through the same-origin tunnel (`/api/error-reports/envelope`): the
     * only destination the tunnel forwards to. Unset: no tunnel (404), the pages report nothing.
     */
    SENTRY_BROWSER_DSN: sentryDsn.optional(),
    SENTRY_ENVIRONMENT: z.string().optional(),
    SENTRY_RELEASE: z.string().optional(),
    /** Spec §8: trace sample rate 1; lower it for a busy installation. */
    SENTRY_TRACES_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(1),
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
      // Static keys come as a pair; with neither, the AWS SDK's default credential chain applies (web identity of a
      // Kubernetes ServiceAccount, instance profile, AWS_* variables).
      const [id, secret] = [config.S3_ACCESS_KEY_ID, config.S3_SECRET_ACCESS_KEY];
      if (id && !secret)
        ctx.addIssue({ code: 'custom', path: ['S3_SECRET_ACCESS_KEY'], message: 'is required with S3_ACCESS_KEY_ID' });
      if (secret && !id)
        ctx.addIssue({ code: 'custom', path: ['S3_ACCESS_KEY_ID'], message: 'is required with S3_SECRET_ACCESS_KEY' });
    },
    // Run even when other keys are invalid, so one start-up reports every problem.
    { when: () => true },
  );

export type PlatformConfig = z.output<typeof platformConfigSchema>;
