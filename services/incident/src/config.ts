import { z } from 'zod';
import { DEFAULT_RETENTION_WARNING_DAYS, DUE_SOON_DAYS } from '@whistle/contracts';
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
  /**
   * Report flooding (docs/security.md): reports a company receives per hour before a report costs a proof of work;
   * past it the work starts at POW_BASE_DIFFICULTY bits and grows one bit each time the volume doubles again,
   * up to POW_MAX_DIFFICULTY. No per-company cap: a flood pays its way, it never closes the company's intake.
   */
  POW_FREE_REPORTS_PER_COMPANY: perWindow(30),
  POW_BASE_DIFFICULTY: z.coerce.number().int().min(1).max(24).default(8),
  POW_MAX_DIFFICULTY: z.coerce.number().int().min(1).max(24).default(12),
  /** How long a challenge may be solved and sent (the discloser writes meanwhile; the page asks again after). */
  POW_CHALLENGE_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  /** Retrieval attempts (right or wrong) per client address per 15 minutes. */
  RETRIEVAL_LIMIT_PER_CLIENT: perWindow(20),
  /**
   * Failed retrievals per company per 15 minutes, from anywhere, that log a warning and count a surge
   * (whistle_incident_retrieval_failure_surges_total). Never a refusal: the ~220-bit secret code cannot be guessed,
   * and a per-company lockout let a few addresses shut every discloser of a company out of follow-up.
   */
  RETRIEVAL_FAILURE_ALERT_PER_COMPANY: perWindow(200),
  /**
   * Deadline reminders: a running clock gets its `due_soon` reminder this many days before it falls due
   * (fractions allowed: 0.5 is twelve hours). The case views' "due soon" uses DUE_SOON_DAYS, the default.
   */
  DEADLINE_DUE_SOON_DAYS: z.coerce.number().positive().max(90).default(DUE_SOON_DAYS),
  /** Milliseconds between two scans of the deadline scheduler (counted from the end of the previous one). */
  DEADLINE_SCAN_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(60_000),
  /** Cases claimed per transaction by a scan; a scan takes batches until none is left. */
  DEADLINE_SCAN_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(100),
  /**
   * Retention (docs/security.md): the company's admins are warned this many days before a closed case is
   * deleted; a shortened policy never deletes a case sooner than that from the change.
   */
  RETENTION_WARNING_DAYS: z.coerce.number().int().min(1).max(90).default(DEFAULT_RETENTION_WARNING_DAYS),
  /** Milliseconds between two runs of the retention job (warnings, then deletions); hourly by default. */
  RETENTION_SCAN_INTERVAL_MS: z.coerce.number().int().min(10).max(86_400_000).default(3_600_000),
  /** Cases claimed per transaction by the retention job; a run takes batches until none is left. */
  RETENTION_SCAN_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(50),
  /**
   * Milliseconds between two folds of the reporting deltas into the per-day summary (docs/case-management.md,
   * Reporting). A reading adds the deltas not folded yet, so this bounds their number, not the figures' freshness.
   */
  REPORTING_FOLD_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  /** Deltas folded per statement; a fold takes batches until none is left, in one transaction. */
  REPORTING_FOLD_BATCH_SIZE: z.coerce.number().int().min(100).max(1_000_000).default(50_000),
});
export type IncidentConfig = z.infer<typeof incidentConfigSchema>;
