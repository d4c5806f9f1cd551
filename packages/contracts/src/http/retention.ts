import { z } from '../zod';
import { requiredWhenMissing } from './common';

/*
 * The company's retention policy (incident service, ADMIN): how long a closed case is kept before it is deleted
 * for good, crypto-shredded with its files (docs/security.md, "Retention").
 */

/** Twelve months after closing, unless an admin chooses otherwise. */
export const DEFAULT_RETENTION_MONTHS = 12;
export const MIN_RETENTION_MONTHS = 1;
/** Ten years: longer is a typing mistake, not a policy (and against the data-minimisation the directive asks for). */
export const MAX_RETENTION_MONTHS = 120;
/** How many days before the deletion the company's admins are warned, unless the operator configures otherwise. */
export const DEFAULT_RETENTION_WARNING_DAYS = 14;

const wholeMonths = 'A whole number of months is required';

/** PUT /api/incident/retention (ADMIN). */
export const retentionUpdateRequestSchema = z.strictObject({
  retention_months: z
    .number({ error: (issue) => requiredWhenMissing(issue) ?? wholeMonths })
    .int(wholeMonths)
    .min(MIN_RETENTION_MONTHS, `Ensure this value is greater than or equal to ${MIN_RETENTION_MONTHS}`)
    .max(MAX_RETENTION_MONTHS, `Ensure this value is less than or equal to ${MAX_RETENTION_MONTHS}`),
});
export type RetentionUpdateRequest = z.infer<typeof retentionUpdateRequestSchema>;

/** GET and PUT /api/incident/retention answer the policy in force. */
export const retentionPolicySchema = z.object({
  retention_months: z.number().int().min(MIN_RETENTION_MONTHS).max(MAX_RETENTION_MONTHS),
  /** Days before the deletion the admins are warned by e-mail (the operator's setting, shown on the page). */
  warning_days: z.number().int().nonnegative(),
});
export type RetentionPolicy = z.infer<typeof retentionPolicySchema>;
