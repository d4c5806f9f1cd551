import { z } from '../zod';
import { versionedString } from './common';
import { incidentCredentialSchema } from './incident';

/**
 * A company key rotation's cases (docs/security.md, "Rotation"): the incident service hands an admin's browser the
 * company wrappings still under an older key, a page at a time, and stores what the browser re-wrapped to the
 * current one. Only wrappings travel: the browser opens and wraps, the server cannot.
 */

/** At most this many cases per page and per stored batch. */
export const REWRAP_BATCH_MAX = 200;

/** GET /api/incident/company-key/rewrap?key_version=&after=&limit= (ADMIN). */
export const rewrapPageQuerySchema = z.object({
  /** The current company key version the browser re-wraps to: another is stale (409). */
  key_version: z.coerce.number().int().positive(),
  /** The last case id of the previous page (cases come in id order). */
  after: z.uuid({ error: 'Invalid uuid' }).optional(),
  limit: z.coerce.number().int().min(1).max(REWRAP_BATCH_MAX).default(REWRAP_BATCH_MAX),
});
export type RewrapPageQuery = z.infer<typeof rewrapPageQuerySchema>;

export const rewrapCaseSchema = z.object({
  uuid: z.uuid(),
  credential: incidentCredentialSchema,
  aes_salt: z.string(),
  aes_iv: z.string(),
  company_encrypted_passphrase: z.string(),
  /** The version the wrapping is known to be under, null when not known (the browser tries the keys it holds). */
  company_key_version: z.number().int().positive().nullable(),
});
export type RewrapCase = z.infer<typeof rewrapCaseSchema>;

export const rewrapPageSchema = z.object({
  key_version: z.number().int().positive(),
  previous_key_version: z.number().int().positive(),
  /** Cases of the company still to re-wrap (this page's among them). */
  remaining: z.number().int().nonnegative(),
  cases: z.array(rewrapCaseSchema),
  /** Pass as `after` for the next page; null on the last one. */
  next_after: z.uuid().nullable(),
});
export type RewrapPage = z.infer<typeof rewrapPageSchema>;

/** PUT /api/incident/company-key/rewrap (ADMIN): re-wrapped passphrases; a case already re-wrapped is left as it is. */
export const rewrapBatchSchema = z.strictObject({
  key_version: z.number().int().positive(),
  wrappings: z
    .array(
      z.strictObject({
        uuid: z.uuid({ error: 'Invalid uuid' }),
        company_encrypted_passphrase: versionedString(1024),
      }),
    )
    .min(1)
    .max(REWRAP_BATCH_MAX),
});
export type RewrapBatch = z.infer<typeof rewrapBatchSchema>;
export const rewrapBatchResultSchema = z.object({
  stored: z.number().int().nonnegative(),
  remaining: z.number().int().nonnegative(),
});
export type RewrapBatchResult = z.infer<typeof rewrapBatchResultSchema>;

/**
 * POST /api/incident/company-key/rewrap/complete (ADMIN): no case is left under the previous key, so it may go: the
 * incident service announces it (`incident.company_key_rewrapped`) and auth deletes the previous key's wrappings.
 * 409 with `remaining` while some are left.
 */
export const rewrapCompleteSchema = z.strictObject({ key_version: z.number().int().positive() });
