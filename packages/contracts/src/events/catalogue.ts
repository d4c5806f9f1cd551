import { z } from '../zod';
import { STAFF_LANGUAGE_CODES } from '../languages/staff-languages';

const role = z.enum(['ADMIN', 'REVIEWER', 'HANDLER']);
const outcome = z.enum([
  'substantiated',
  'unsubstantiated',
  'inconclusive',
  'referred',
  'out_of_scope',
  'spam',
  'withdrawn',
]);
const status = z.enum(['NEW', 'ACKNOWLEDGED', 'ASSESSMENT', 'INVESTIGATION', 'CLOSED', 'REOPENED']);
const clock = z.enum(['acknowledgement', 'feedback', 'resolution']);
/** Spec §3 notification settings options; also each user's own opt-outs. */
const notificationSettings = z.object({
  new_incidents: z.boolean(),
  assigned_to_an_incident: z.boolean(),
  incident_updates: z.boolean(),
  deadlines: z.boolean(),
});
const category = z.object({
  category_id: z.uuid(),
  name: z.string(),
  parent_id: z.uuid().nullable(),
  is_active: z.boolean(),
  /** Staff who get new reports of this label by default (spec: category user_profiles). */
  assignee_ids: z.array(z.uuid()),
});
const incidentCreated = z.object({
  incident_id: z.uuid(),
  display_report_number: z.number().int().positive(),
  status: z.string(),
  report_channel: z.enum(['online', 'telephone', 'internal']),
  report_anonymously: z.boolean(),
  category_ids: z.array(z.uuid()),
  location_id: z.uuid(),
});
const location = z.object({ location_id: z.uuid(), name: z.string(), is_active: z.boolean() });
/** A staff member's mail language: one of the staff pages' eight (v1 events knew only en and fr). */
const staffLanguage = z.enum(STAFF_LANGUAGE_CODES);
const companyCreated = z.object({
  company_id: z.uuid(),
  url_identifier: z.string(),
  name: z.string(),
  country: z.string().length(2),
  /** The first ADMIN, who receives the welcome e-mail. */
  created_by: z.object({ user_id: z.uuid(), email: z.email() }),
  /** Starting reporting labels and locations, so the incident service can check a report's ids at once. */
  categories: z.array(
    z.object({ uuid: z.uuid(), name: z.string(), parent_uuid: z.uuid().nullable(), is_active: z.boolean() }),
  ),
  locations: z.array(z.object({ uuid: z.uuid(), name: z.string(), is_active: z.boolean() })),
});
const userCreated = z.object({
  user_id: z.uuid(),
  email: z.email(),
  full_name: z.string(),
  roles: z.array(z.enum(['ADMIN', 'REVIEWER', 'HANDLER'])).min(1),
});
const userUpdated = z.object({
  user_id: z.uuid(),
  email: z.email(),
  full_name: z.string(),
  roles: z.array(role).min(1),
  language: z.enum(['en', 'fr']),
  /** false = this user turned that kind of e-mail off for themselves. */
  notifications: notificationSettings,
});

/**
 * The event catalogue: name → version → payload schema. A change of shape is a new version, never an edit.
 * Only ids, numbers, statuses and staff account facts travel here; never report content.
 */
export const eventCatalogue = {
  'company.created': {
    1: companyCreated,
    /** v2: with the founding admin's language (the page they signed up on), which the welcome mail is in. */
    2: companyCreated.extend({ created_by: companyCreated.shape.created_by.extend({ language: staffLanguage }) }),
  },
  'user.created': {
    1: userCreated,
    /** v2: with the member's mail language (chosen at the invitation or the onboarding). */
    2: userCreated.extend({ language: staffLanguage }),
  },
  /** A staff access token was revoked (logout) before it expired: every service refuses its jti until `expires_at`. */
  'token.revoked': {
    1: z.object({ jti: z.string().min(1), user_id: z.uuid(), expires_at: z.iso.datetime({ offset: true }) }),
  },
  /** A staff account was removed: every service refuses its tokens issued up to `deleted_at`. */
  'user.deleted': {
    1: z.object({ user_id: z.uuid(), deleted_at: z.iso.datetime({ offset: true }) }),
  },
  /**
   * Every session a staff account had before `not_before` ends (its password was changed, reset or first set, or its
   * roles changed): every service refuses the account's tokens issued before that second.
   */
  'user.sessions_revoked': {
    1: z.object({
      user_id: z.uuid(),
      not_before: z.iso.datetime({ offset: true }),
      reason: z.enum(['password_changed', 'roles_changed']),
    }),
  },
  /** A staff member signed in: the factor that completed it (`mfa`: a TOTP code after a password or SSO). */
  'user.signed_in': {
    1: z.object({ user_id: z.uuid(), method: z.enum(['password', 'sso', 'mfa']) }),
  },
  /** A sign-in of a known account was refused: which factor failed. Unknown addresses are not events. */
  'user.sign_in_failed': {
    1: z.object({ user_id: z.uuid(), factor: z.enum(['password', 'mfa']) }),
  },
  /**
   * A staff member's browser derived their unchanged password again with a newer key derivation (`kdf`) and
   * re-sealed their keys under it. No session ended. Nothing secret: the name of the derivation only.
   */
  'user.password_kdf_upgraded': { 1: z.object({ user_id: z.uuid(), kdf: z.string() }) },
  /** A staff member enabled (or replaced) their TOTP second factor. */
  'user.mfa_enabled': { 1: z.object({ user_id: z.uuid() }) },
  /**
   * A person made their key pairs in their browser (onboarding, invitation, first SSO sign-in) or new ones after a
   * reset by e-mail (`replaced`: whatever was granted to the old keys is gone). Public keys are not secret: the
   * team compares their fingerprints. `key_id` is the key's opaque id.
   */
  'user.keys_created': {
    1: z.object({
      user_id: z.uuid(),
      key_id: z.uuid(),
      public_key: z.string(),
      signing_public_key: z.string(),
      fingerprint: z.string(),
      replaced: z.boolean(),
    }),
  },
  /** A way to unlock one's keys was added or removed (a passkey, an unlock passphrase). */
  'user.unlock_method_added': {
    1: z.object({ user_id: z.uuid(), unlock_id: z.uuid(), method: z.enum(['password', 'passkey', 'passphrase']) }),
  },
  'user.unlock_method_removed': {
    1: z.object({ user_id: z.uuid(), unlock_id: z.uuid(), method: z.enum(['password', 'passkey', 'passphrase']) }),
  },
  /** The company key was wrapped to a person by someone's browser: who now holds which version. */
  'company.key_granted': {
    1: z.object({
      user_id: z.uuid(),
      key_version: z.number().int().positive(),
      fingerprint: z.string(),
      reason: z.enum(['onboarding', 'migration', 'approval', 'recovery', 'rotation']),
    }),
  },
  /** A person's wrapping of the company key was deleted (`key_version` null: every version they held). */
  'company.key_revoked': {
    1: z.object({
      user_id: z.uuid(),
      key_version: z.number().int().positive().nullable(),
      reason: z.enum(['user_deleted', 'admin_role_removed', 'keys_replaced', 'rotation_completed']),
    }),
  },
  /** A team member without access to reports asked the admins to grant the company key to their keys. */
  'company.key_access_requested': {
    1: z.object({ user_id: z.uuid(), request_id: z.uuid(), fingerprint: z.string() }),
  },
  'company.key_access_declined': { 1: z.object({ user_id: z.uuid(), request_id: z.uuid() }) },
  /**
   * An admin's browser endorsed a member's key for the reporters' pages (docs/security.md, "Signed staff messages"):
   * whose key, in which role, by which of the admin's keys.
   */
  'company.key_endorsed': {
    1: z.object({
      user_id: z.uuid(),
      key_id: z.uuid(),
      role: z.enum(['ADMIN', 'REVIEWER', 'HANDLER']),
      endorser_key_id: z.uuid(),
    }),
  },
  /** A company from before people held keys now has its key held by an admin and a recovery kit only. */
  'company.keys_migrated': { 1: z.object({ key_version: z.number().int().positive(), fingerprint: z.string() }) },
  /** A new recovery kit: the previous one no longer opens the company key. */
  'company.recovery_kit_rotated': {
    1: z.object({ key_version: z.number().int().positive(), fingerprint: z.string() }),
  },
  /**
   * A company key rotation started: new reports are wrapped to `public_key` at once; the cases under
   * `previous_key_version` are re-wrapped by an admin's browser, after which that key's wrappings go.
   */
  'company.key_rotation_started': {
    1: z.object({
      key_version: z.number().int().positive(),
      previous_key_version: z.number().int().positive(),
      public_key: z.string(),
      fingerprint: z.string(),
    }),
  },
  /** Every case is re-wrapped: the previous key's grants and recovery kit copy are deleted, it opens nothing more. */
  'company.key_rotation_completed': {
    1: z.object({
      key_version: z.number().int().positive(),
      previous_key_version: z.number().int().positive(),
      fingerprint: z.string(),
    }),
  },
  /** No case of the company is left under `previous_key_version`: its private key may go (auth deletes it). */
  'incident.company_key_rewrapped': {
    1: z.object({ key_version: z.number().int().positive(), previous_key_version: z.number().int().positive() }),
  },
  /** A report was filed. Ids, number and clear flags only: fields stay encrypted in the incident service. */
  'incident.created': {
    1: incidentCreated,
    /** v2: with the people the discloser kept out of the case (docs/security.md, "Keeping people out"). */
    2: incidentCreated.extend({ excluded_user_ids: z.array(z.uuid()) }),
  },
  /** A message was added to an incident; its content never travels. */
  'incident.message.created': {
    1: z.object({
      incident_id: z.uuid(),
      incident_message_id: z.uuid(),
      sender_source: z.enum(['DISCLOSER', 'STAFF']),
    }),
  },
  /** A file was stored; name, key and bytes stay with the file service. */
  'incident.file.created': {
    1: z.object({
      incident_id: z.uuid(),
      incident_file_id: z.uuid(),
      incident_message_id: z.uuid().nullable(),
      file_size: z.number().int().nonnegative(),
      mime_type: z.string(),
    }),
  },
  /** The company's name, country or settings changed (admin). The whole current state, so consumers just overwrite. */
  'company.updated': {
    1: z.object({
      name: z.string(),
      country: z.string().length(2),
      resolution_deadline_days: z.number().int().nonnegative(),
      notifications: notificationSettings,
    }),
  },
  /** Reporting labels. A label in use by cases is deactivated (updated, is_active false), not deleted. */
  'category.created': { 1: category },
  'category.updated': { 1: category },
  'category.deleted': { 1: z.object({ category_id: z.uuid() }) },
  'location.created': { 1: location },
  'location.updated': { 1: location },
  'location.deleted': { 1: z.object({ location_id: z.uuid() }) },
  /** A staff account's name, roles, language or own notification opt-outs changed. The whole current state. */
  'user.updated': {
    1: userUpdated,
    /** v2: the language may be any of the staff languages (v1's consumers know en and fr only). */
    2: userUpdated.extend({ language: staffLanguage }),
  },
  /** Status, outcome, categories or feedback of a case changed (staff). Never the motivation. */
  'incident.updated': {
    1: z.object({
      incident_id: z.uuid(),
      display_report_number: z.number().int().positive(),
      status: status,
      previous_status: status,
      outcome: outcome.nullable(),
      /** What changed: 'status', 'categories', 'feedback'. */
      changes: z.array(z.enum(['status', 'categories', 'feedback'])).min(1),
      category_ids: z.array(z.uuid()),
    }),
  },
  /** Who works a case, after a change: the whole list, and the difference (SYSTEM when by category default). */
  'incident.assigned': {
    1: z.object({
      incident_id: z.uuid(),
      display_report_number: z.number().int().positive(),
      assignee_ids: z.array(z.uuid()),
      added_ids: z.array(z.uuid()),
      removed_ids: z.array(z.uuid()),
    }),
  },
  /** Conflict of interest: who an admin excluded from a case, after a change. */
  'incident.exclusion.changed': {
    1: z.object({
      incident_id: z.uuid(),
      excluded_user_ids: z.array(z.uuid()),
      added_ids: z.array(z.uuid()),
      removed_ids: z.array(z.uuid()),
    }),
  },
  /** A private staff note was added; its content never travels. */
  'incident.note.created': {
    1: z.object({ incident_id: z.uuid(), incident_note_id: z.uuid() }),
  },
  /** A staff member opened a case (the audit trail records every access). */
  'incident.viewed': { 1: z.object({ incident_id: z.uuid() }) },
  /** Two cases were linked (or unlinked): one event per case, naming the other. */
  'incident.linked': { 1: z.object({ incident_id: z.uuid(), linked_incident_id: z.uuid() }) },
  'incident.unlinked': { 1: z.object({ incident_id: z.uuid(), linked_incident_id: z.uuid() }) },
  /** A staff member printed a case (what the browser decrypted leaves on paper: the trail records who and when). */
  'incident.printed': { 1: z.object({ incident_id: z.uuid() }) },
  /**
   * A staff member recorded a report taken by telephone or in a meeting (directive art. 18), encrypted in their
   * browser; the envelope's actor is that staff member. Sent with the report's incident.created.
   */
  'incident.recorded': {
    1: z.object({ incident_id: z.uuid(), report_channel: z.enum(['telephone', 'internal']) }),
  },
  /** The reporter approved the record staff made of their report (with their session: the actor is the discloser). */
  'incident.record_approved': { 1: z.object({ incident_id: z.uuid() }) },
  /** A staff member exported cases to CSV: how many, and the filters (ids and enums only). */
  'incident.exported': {
    1: z.object({ count: z.number().int().nonnegative(), filters: z.record(z.string(), z.unknown()) }),
  },
  /**
   * A staff member downloaded the search corpus (issue 23) to search their cases' words in the browser: how many
   * cases. Never the words, which never leave the browser.
   */
  'incident.searched': { 1: z.object({ count: z.number().int().nonnegative() }) },
  /** A file was downloaded (by staff or the discloser: see the envelope's actor). */
  'incident.file.downloaded': {
    1: z.object({ incident_id: z.uuid(), incident_file_id: z.uuid() }),
  },
  /** A case's clock is due soon or overdue; emitted once per clock, state and case by the deadline scheduler. */
  'incident.deadline': {
    1: z.object({
      incident_id: z.uuid(),
      display_report_number: z.number().int().positive(),
      clock,
      state: z.enum(['due_soon', 'overdue']),
      due_at: z.iso.datetime({ offset: true }),
      assignee_ids: z.array(z.uuid()),
    }),
  },
  /** An admin changed how many months closed cases are kept (the incident service's retention policy). */
  'company.retention_changed': {
    1: z.object({ retention_months: z.number().int().positive() }),
  },
  /** A closed case will be deleted at `delete_at` (retention); emitted once per case and date, days before. */
  'incident.retention_due': {
    1: z.object({
      incident_id: z.uuid(),
      display_report_number: z.number().int().positive(),
      delete_at: z.iso.datetime({ offset: true }),
    }),
  },
  /**
   * A case was deleted for good with its key material (actor SYSTEM): consumers drop what they hold of it
   * (the file service its encrypted files). Ids and the number only; the audit trail keeps this entry.
   */
  'incident.deleted': {
    1: z.object({
      incident_id: z.uuid(),
      display_report_number: z.number().int().positive(),
      reason: z.enum(['retention']),
    }),
  },
} as const;

export type EventName = keyof typeof eventCatalogue;
export type EventPayload<
  N extends EventName,
  V extends keyof (typeof eventCatalogue)[N] = 1 & keyof (typeof eventCatalogue)[N],
> = (typeof eventCatalogue)[N][V] extends z.ZodType<infer P> ? P : never;

/** Validates a payload against the catalogue; throws a ZodError naming the bad field. */
export function parseEventPayload(name: string, version: number, payload: unknown): Record<string, unknown> {
  const versions = (eventCatalogue as Record<string, Record<number, z.ZodType<Record<string, unknown>>>>)[name];
  const schema = versions?.[version];
  if (!schema) throw new Error(`Unknown event ${name} v${version}`);
  return schema.parse(payload);
}
