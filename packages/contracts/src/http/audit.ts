import { z } from '../zod';
import { queryList } from './common';

/**
 * The audit trail (audit service). Each entry says who (a staff user with their name at the time, the
 * discloser, or the platform), did what (a kebab-case action), to which object (table identifier and
 * id), when, and whether it succeeded. Never report content: only ids, numbers and statuses reach it.
 */
export const auditTableIdentifiers = [
  'company',
  'user_profile',
  'category',
  'location',
  'token',
  'incident',
  'incident_message',
  'incident_note',
  'incident_file',
  'incident_exclusion',
] as const;
export const auditTableIdentifierSchema = z.enum(auditTableIdentifiers, { error: 'Unknown table identifier' });

/**
 * Every action the audit service records today (services/audit/src/domain/audit-entry.ts, checked by its
 * tests): what the pages translate and offer as a filter. The trail may hold others later, shown as they are.
 */
export const auditActions = [
  'login-succeeded',
  'login-failed',
  'logout',
  'mfa-enabled',
  'sessions-revoked',
  'user-created',
  'user-invited',
  'user-updated',
  'user-removed',
  'company-created',
  'company-updated',
  'category-created',
  'category-updated',
  'category-deleted',
  'location-created',
  'location-updated',
  'location-deleted',
  'incident-reported',
  'incident-opened',
  'incident-status-changed',
  'incident-feedback-given',
  'incident-categories-changed',
  'incident-assigned',
  'incident-exclusion-changed',
  'incident-note-added',
  'incident-message-sent',
  'incident-deadline-due-soon',
  'incident-deadline-overdue',
  'incident-retention-due',
  'incident-deleted',
  'retention-changed',
  'incidents-exported',
  'incident-printed',
  'incident-recorded',
  'incident-record-approved',
  'incident-linked',
  'incident-unlinked',
  'incidents-searched',
  'file-uploaded',
  'file-downloaded',
  'keys-created',
  'unlock-method-added',
  'unlock-method-removed',
  'password-kdf-upgraded',
  'report-access-granted',
  'report-access-revoked',
  'report-access-requested',
  'report-access-declined',
  'key-endorsed',
  'company-key-moved',
  'recovery-kit-renewed',
  'company-key-rotation-started',
  'company-key-rotated',
  'cases-rewrapped',
] as const;
export type AuditAction = (typeof auditActions)[number];

const timestamp = z.iso.datetime({ offset: true });
const day = z.iso.date({ error: 'Invalid date (YYYY-MM-DD)' });

/** GET /api/account/company/audit_log/ (ADMIN): filters, page. Unknown parameters are refused. */
export const auditLogQuerySchema = z
  .strictObject({
    table_identifiers: queryList(z.array(auditTableIdentifierSchema).max(20)).optional(),
    object: z.uuid({ error: 'Invalid object id' }).optional(),
    /** Everything about one case: the incident and its messages, notes, files and exclusions. */
    incident: z.uuid({ error: 'Invalid incident id' }).optional(),
    user: z.uuid({ error: 'Invalid user id' }).optional(),
    action: z
      .string()
      .regex(/^[a-z]+(-[a-z]+)*$/, 'Invalid action')
      .max(64)
      .optional(),
    /** Period, inclusive, in UTC days. */
    from: day.optional(),
    to: day.optional(),
    page: z.coerce.number({ error: 'Invalid page' }).int('Invalid page').min(1, 'Invalid page').default(1),
    page_size: z.coerce
      .number({ error: 'Invalid page size' })
      .int('Invalid page size')
      .min(1, 'Invalid page size')
      .max(200, 'Page size is at most 200')
      .default(50),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    path: ['to'],
    message: 'The period ends before it starts',
  });
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;

export const auditActorSchema = z.object({
  type: z.enum(['STAFF', 'DISCLOSER', 'SYSTEM']),
  /** The staff user's id; null for the discloser and the platform. */
  uuid: z.uuid().nullable(),
  /** The staff user's name when the entry was recorded; 'Discloser' or 'Whistle' otherwise. */
  name: z.string(),
});

export const auditLogEntrySchema = z.object({
  uuid: z.uuid(),
  action: z.string(),
  success: z.boolean(),
  table_identifier: z.string(),
  object_uuid: z.uuid().nullable(),
  incident_uuid: z.uuid().nullable(),
  actor: auditActorSchema,
  occurred_at: timestamp,
});
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;

export const auditLogResponseSchema = z.object({
  count: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  page_size: z.number().int().positive(),
  results: z.array(auditLogEntrySchema),
});
export type AuditLogResponse = z.infer<typeof auditLogResponseSchema>;

/** GET /api/account/company/audit_log/verify (ADMIN): the company's hash chain, checked link by link. */
export const auditVerificationSchema = z.object({
  intact: z.boolean(),
  /** Entries checked. */
  checked: z.number().int().nonnegative(),
  /** The first entry whose hash or link does not match, if any. */
  first_broken: z.object({ uuid: z.uuid(), sequence: z.number().int().positive() }).nullable(),
  /** Entries were removed from the end: the chain's head points past the last entry left. */
  truncated: z.boolean(),
});
export type AuditVerification = z.infer<typeof auditVerificationSchema>;
