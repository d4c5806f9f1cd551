import { z } from '../zod';
import { queryList } from './common';
import {
  encryptedText,
  incidentCredentialSchema,
  incidentStatusSchema,
  reportChannelSchema,
  reportFieldSchema,
  staffSignatureSchema,
  type IncidentStatus,
} from './incident';
import { fingerprintSchema, sealedValueSchema } from './keys';

/*
 * The staff side of incidents (case management). The spec leaves statuses, page size, the update payload
 * and finer permissions "not shown"; the choices are explained in docs/case-management.md. What the
 * server sees stays what ARCHITECTURE §5 allows: ids, statuses, outcomes, timestamps, numbers. Every
 * text a person writes about a case (reply, note, close/reopen motivation) is encrypted to the incident
 * key in the browser.
 */

const timestamp = z.iso.datetime({ offset: true });

/** How a case ended (ISO 37002 "conclude"); required when closing. */
export const incidentOutcomes = [
  'substantiated',
  'unsubstantiated',
  'inconclusive',
  'referred',
  'out_of_scope',
  'spam',
  'withdrawn',
] as const;
export const incidentOutcomeSchema = z.enum(incidentOutcomes, { error: 'Unknown outcome' });
export type IncidentOutcome = z.infer<typeof incidentOutcomeSchema>;

/**
 * Which status may follow which (EU directive 2019/1937 art. 9, ISO 37002 receive → assess → address →
 * conclude). NEW may be closed at once (spam, out of scope); a closed case is only reopened.
 */
export const incidentStatusTransitions: Readonly<Record<IncidentStatus, readonly IncidentStatus[]>> = {
  NEW: ['ACKNOWLEDGED', 'CLOSED'],
  ACKNOWLEDGED: ['ASSESSMENT', 'INVESTIGATION', 'CLOSED'],
  ASSESSMENT: ['INVESTIGATION', 'CLOSED'],
  INVESTIGATION: ['ASSESSMENT', 'CLOSED'],
  REOPENED: ['ASSESSMENT', 'INVESTIGATION', 'CLOSED'],
  CLOSED: ['REOPENED'],
};

export function canMoveIncident(from: IncidentStatus, to: IncidentStatus): boolean {
  return incidentStatusTransitions[from].includes(to);
}

/** The directive's clocks and the company's internal target, per case. */
export const incidentClockNames = ['acknowledgement', 'feedback', 'resolution'] as const;
export const incidentClockNameSchema = z.enum(incidentClockNames);
export type IncidentClockName = z.infer<typeof incidentClockNameSchema>;

/**
 * `done` once the clock was stopped (acknowledged, feedback given, case closed); otherwise `overdue`
 * after `due_at`, `due_soon` within DUE_SOON_DAYS before it, else `due`.
 */
export const clockStateSchema = z.enum(['done', 'due', 'due_soon', 'overdue']);
export type ClockState = z.infer<typeof clockStateSchema>;
/** Default warning window before a clock falls due (the deadline scheduler's default too). */
export const DUE_SOON_DAYS = 2;
/*
 * The directive's clocks, their one source: the incident service's legal-clocks module passes them to SQL.
 * Changing one changes the due times of cases received or acknowledged from then on, not of those stored.
 */
/** Acknowledgement is due this many days after receipt (directive art. 9(1)(b)). */
export const ACKNOWLEDGEMENT_DAYS = 7;
/**
 * Feedback is due this many months after acknowledgement, or after the acknowledgement's due time when none
 * was sent (art. 9(1)(f)).
 */
export const FEEDBACK_MONTHS = 3;

export const incidentClockSchema = z.object({
  due_at: timestamp,
  done_at: timestamp.nullable(),
  state: clockStateSchema,
});
export type IncidentClock = z.infer<typeof incidentClockSchema>;
export const incidentClocksSchema = z.object({
  acknowledgement: incidentClockSchema,
  feedback: incidentClockSchema,
  resolution: incidentClockSchema,
});
export type IncidentClocks = z.infer<typeof incidentClocksSchema>;

export const staffMemberSchema = z.object({ uuid: z.uuid(), full_name: z.string() });
export type StaffMember = z.infer<typeof staffMemberSchema>;

const managementCategorySchema = z.object({ uuid: z.uuid(), name: z.string(), parent_uuid: z.uuid().nullable() });

/**
 * The signed-in person's own per-case grant (not in the spec; docs/security.md, "Per-case grants"): the incident
 * passphrase wrapped in a browser to their ECDH key `key_id` (`openIncidentWithGrant` of @whistle/crypto). Nobody is
 * handed another person's grant.
 */
export const caseGrantSchema = z.object({
  key_id: z.uuid(),
  fingerprint: z.string(),
  wrapped_passphrase: z.string(),
});
export type CaseGrant = z.infer<typeof caseGrantSchema>;

/**
 * What opens the incident in the staff browser: with the company private key (`openIncidentAsCompany` of
 * @whistle/crypto) or with the viewer's own grant, `my_grant` (null when they hold none).
 */
export const incidentKeyMaterialSchema = z.object({
  credential: incidentCredentialSchema,
  aes_salt: z.string(),
  aes_iv: z.string(),
  /** Null when the discloser excluded an admin: only per-case grants open the case (docs/security.md). */
  company_encrypted_passphrase: z.string().nullable(),
  my_grant: caseGrantSchema.nullable().optional(),
});
export type IncidentKeyMaterial = z.infer<typeof incidentKeyMaterialSchema>;

/** One row of GET /api/incident/. `full_name` is the encrypted report field, null when none was given. */
export const incidentListItemSchema = z.object({
  uuid: z.uuid(),
  display_report_number: z.number().int().positive(),
  status: z.object({ name: incidentStatusSchema }),
  outcome: incidentOutcomeSchema.nullable(),
  report_channel: reportChannelSchema,
  report_anonymously: z.boolean(),
  created: timestamp,
  updated: timestamp,
  last_activity_at: timestamp,
  location: z.object({ uuid: z.uuid(), name: z.string() }),
  /** Top-level categories (no parent) and sub-categories (with parent_uuid), names as the case keeps them. */
  management_categories: z.array(managementCategorySchema),
  assignees: z.array(staffMemberSchema),
  clocks: incidentClocksSchema,
  full_name: encryptedText.nullable(),
  keys: incidentKeyMaterialSchema,
  /**
   * Ours beyond the spec (issue 23): how many of the reporter's messages the signed-in person has not been shown
   * (the case page's thread marks them read). In every list row; absent from the single case.
   */
  unread_messages: z.number().int().nonnegative().optional(),
});
export type IncidentListItem = z.infer<typeof incidentListItemSchema>;

/**
 * Spec §9: sort options, descending with a '-' prefix; default -last_activity_at. `next_due_at` (the earliest
 * running deadline, issue 23) is ours beyond the spec's three.
 */
export const incidentSortKeys = ['last_activity_at', 'created', 'category__name', 'next_due_at'] as const;
export const incidentSortSchema = z.enum(
  [...incidentSortKeys, ...incidentSortKeys.map((key) => `-${key}` as const)] as [string, ...string[]],
  { error: 'Unknown sort' },
);
export const DEFAULT_INCIDENT_SORT = '-last_activity_at';
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const listOf = <T extends z.ZodType<unknown, string>>(item: T) => queryList(z.array(item).max(50));
const booleanFlag = z.enum(['true', 'false']).transform((value) => value === 'true');

/** Filters shared by the list and the export (the export applies the list's current filters). */
export const incidentFilterSchema = z.object({
  status: listOf(incidentStatusSchema).optional(),
  category: listOf(z.uuid({ error: 'Invalid category id' })).optional(),
  location: listOf(z.uuid({ error: 'Invalid location id' })).optional(),
  channel: listOf(reportChannelSchema).optional(),
  assigned_to_me: booleanFlag.optional(),
  /** Cases assigned to any of these staff members. */
  assignee: listOf(z.uuid({ error: 'Invalid user id' })).optional(),
  /** Cases nobody is assigned to (true), or only those someone is (false). */
  unassigned: booleanFlag.optional(),
  /** Any running clock past due. */
  overdue: booleanFlag.optional(),
  /** These cases (at most 50), among those the caller may see: how the audit log names its cases by number. */
  incident: listOf(z.uuid({ error: 'Invalid case id' })).optional(),
  /** One case by its number (what people quote: "#12"), searched among the cases the caller may see. */
  report_number: z.coerce
    .number({ error: 'Invalid report number' })
    .int('Invalid report number')
    .positive('Invalid report number')
    .max(2_147_483_647, 'Invalid report number')
    .optional(),
});
export type IncidentFilter = z.infer<typeof incidentFilterSchema>;

/** GET /api/incident/?sort&page&page_size&<filters>. Unknown parameters are refused (400), not ignored. */
export const incidentListQuerySchema = z.strictObject({
  ...incidentFilterSchema.shape,
  sort: incidentSortSchema.default(DEFAULT_INCIDENT_SORT),
  page: z.coerce.number({ error: 'Invalid page' }).int('Invalid page').min(1, 'Invalid page').default(1),
  page_size: z.coerce
    .number({ error: 'Invalid page size' })
    .int('Invalid page size')
    .min(1, 'Invalid page size')
    .max(MAX_PAGE_SIZE, `Page size is at most ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
});
export type IncidentListQuery = z.infer<typeof incidentListQuerySchema>;

/**
 * How many matching cases a list answer counts at most. Counting every case of a large tenant on every page
 * costs more than the page itself (docs/performance.md); past this the answer says "more than".
 */
export const CASE_COUNT_LIMIT = 10_000;

export const incidentListResponseSchema = z.object({
  /** Matching cases, exact up to CASE_COUNT_LIMIT; `count_capped` when more match. */
  count: z.number().int().nonnegative(),
  count_capped: z.boolean(),
  page: z.number().int().positive(),
  page_size: z.number().int().positive(),
  results: z.array(incidentListItemSchema),
});
export type IncidentListResponse = z.infer<typeof incidentListResponseSchema>;

/** One step of the case's status history; the motivation is encrypted to the incident key. */
export const incidentStatusChangeSchema = z.object({
  from: incidentStatusSchema.nullable(),
  to: incidentStatusSchema,
  outcome: incidentOutcomeSchema.nullable(),
  motivation: z.string().nullable(),
  changed_by: staffMemberSchema.nullable(),
  changed_at: timestamp,
});
export type IncidentStatusChange = z.infer<typeof incidentStatusChangeSchema>;

/** What the caller may do on this case (the server enforces the same rules). */
export const incidentPermissionsSchema = z.object({
  update_status: z.boolean(),
  reply: z.boolean(),
  add_note: z.boolean(),
  assign: z.boolean(),
  exclude: z.boolean(),
  /** Admins only: what a case is about decides who gets it by default and how it is counted. */
  change_categories: z.boolean(),
});
export type IncidentPermissions = z.infer<typeof incidentPermissionsSchema>;

/** A case linked to another (same matter), as far as the viewer may see it. */
export const linkedCaseSchema = z.object({
  uuid: z.uuid(),
  display_report_number: z.number().int().positive(),
  status: z.object({ name: incidentStatusSchema }),
});
export type LinkedCase = z.infer<typeof linkedCaseSchema>;

/** POST /api/incident/{incident_uuid}/link: the case to link it to. */
export const caseLinkRequestSchema = z.strictObject({ incident_uuid: z.uuid({ error: 'Invalid case id' }) });

/** POST …/link and DELETE …/link/{linked_uuid}: the case's links afterwards. */
export const caseLinksResponseSchema = z.object({ linked_cases: z.array(linkedCaseSchema) });
export type CaseLinksResponse = z.infer<typeof caseLinksResponseSchema>;

/** GET /api/incident/{incident_uuid} for staff: the whole case, encrypted parts as the browser made them. */
export const incidentStaffViewSchema = incidentListItemSchema.extend({
  fields: z.array(reportFieldSchema),
  status_history: z.array(incidentStatusChangeSchema),
  /** People an admin excluded from this case (conflict of interest); listed to admins only, else empty. */
  excluded_users: z.array(staffMemberSchema),
  /** Cases linked to this one that the viewer may see (issue 23): never one they may not open. */
  linked_cases: z.array(linkedCaseSchema),
  permissions: incidentPermissionsSchema,
  /**
   * Incident-scoped session token for the file service (`Authorization: Bearer` on file upload and
   * download), like the discloser's; short-lived, fetched again with the case.
   */
  file_token: z.string(),
  file_token_expires_at: timestamp,
  /**
   * Not in the spec (issue 26, directive art. 18): who recorded a report taken by telephone or in a meeting (null:
   * the reporter sent it), and when the reporter approved that record (null: not yet).
   */
  recorded_by: staffMemberSchema.nullable().optional(),
  record_approved_at: timestamp.nullable().optional(),
});
export type IncidentStaffView = z.infer<typeof incidentStaffViewSchema>;

/**
 * PUT /api/incident/{incident_uuid}/: any combination of a status move, new assignees, new exclusions
 * and new categories. Closing needs an outcome and a motivation, reopening a motivation. Closing may carry
 * `final_message`, a message to the reporter (encrypted to the incident key) sent as feedback in the same
 * transaction; while feedback is still due (no reply marked as feedback yet) the server requires it
 * (directive art. 9(1)(f): closing is no feedback by itself).
 */
export const incidentUpdateRequestSchema = z
  .strictObject({
    status: incidentStatusSchema.exclude(['NEW']).optional(),
    outcome: incidentOutcomeSchema.optional(),
    motivation: encryptedText.optional(),
    final_message: encryptedText.optional(),
    /** Not in the spec: the sender's signature of `final_message` (docs/security.md, "Signed staff messages"). */
    final_message_signature: staffSignatureSchema.optional(),
    assignee_uuids: z
      .array(z.uuid({ error: 'Invalid user id' }))
      .max(50)
      .optional(),
    excluded_user_uuids: z
      .array(z.uuid({ error: 'Invalid user id' }))
      .max(50)
      .optional(),
    category_uuids: z
      .array(z.uuid({ error: 'Invalid category id' }))
      .min(1, 'This field is required')
      .max(50)
      .optional(),
    /**
     * Not in the spec (docs/security.md, "Per-case grants"): the case's passphrase wrapped in the assigning browser
     * to people assigned by this request (or already assigned), each to the key whose `fingerprint` the page showed.
     * A grant for someone not assigned, or whose key changed since, is refused.
     */
    grants: z
      .array(
        z.strictObject({
          user_id: z.uuid({ error: 'Invalid user id' }),
          fingerprint: fingerprintSchema,
          wrapped_passphrase: sealedValueSchema(1024),
        }),
      )
      .max(50)
      .optional(),
  })
  .superRefine((input, ctx) => {
    if (Object.values(input).every((value) => value === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'Nothing to update' });
    }
    if (input.status === 'CLOSED') {
      if (!input.outcome)
        ctx.addIssue({ code: 'custom', path: ['outcome'], message: 'An outcome is required to close' });
      if (!input.motivation) ctx.addIssue({ code: 'custom', path: ['motivation'], message: 'This field is required' });
    } else if (input.outcome) {
      ctx.addIssue({ code: 'custom', path: ['outcome'], message: 'An outcome is given only when closing' });
    }
    if (input.final_message_signature && !input.final_message) {
      ctx.addIssue({ code: 'custom', path: ['final_message_signature'], message: 'A signature needs its message' });
    }
    if (input.final_message && input.status !== 'CLOSED') {
      ctx.addIssue({ code: 'custom', path: ['final_message'], message: 'A final message is sent only when closing' });
    }
    if (input.status === 'REOPENED' && !input.motivation) {
      ctx.addIssue({ code: 'custom', path: ['motivation'], message: 'This field is required' });
    }
    if (input.motivation && input.status !== 'CLOSED' && input.status !== 'REOPENED') {
      ctx.addIssue({
        code: 'custom',
        path: ['motivation'],
        message: 'A motivation is given when closing or reopening',
      });
    }
  });
export type IncidentUpdateRequest = z.infer<typeof incidentUpdateRequestSchema>;

/**
 * POST /api/incident/message/ by staff may mark the reply as the feedback the directive requires,
 * which stops the feedback clock. A discloser's `feedback` is refused.
 */
export const staffMessageCreateRequestSchema = z.strictObject({
  incident_uuid: z.uuid(),
  content: encryptedText,
  feedback: z.boolean().default(false),
  /** Not in the spec: the sender's signature of `content` (docs/security.md, "Signed staff messages"). */
  signature: staffSignatureSchema.optional(),
});
export type StaffMessageCreateRequest = z.infer<typeof staffMessageCreateRequestSchema>;

/** POST /api/incident/note/: a private staff note, never shown to the discloser. */
export const noteCreateRequestSchema = z.strictObject({ incident_uuid: z.uuid(), content: encryptedText });
export type NoteCreateRequest = z.infer<typeof noteCreateRequestSchema>;

/** A note as answered by POST /api/incident/note/ and listed by GET /api/incident/{uuid}/note. */
export const incidentNoteSchema = z.object({
  uuid: z.uuid(),
  incident_uuid: z.uuid(),
  content: z.string(),
  created: timestamp,
  author: staffMemberSchema,
});
export type IncidentNote = z.infer<typeof incidentNoteSchema>;

/**
 * GET /api/incident/export?<filters>: `application/x-ndjson`, one row per line; `X-Total-Count` header. `incident`
 * (ours, issue 23) keeps only the cases of these ids: the list's "Export selected", so up to a whole page of them
 * (the list's own `incident` filter takes 50).
 */
export const incidentExportQuerySchema = z.strictObject({
  ...incidentFilterSchema.shape,
  incident: queryList(
    z
      .array(z.uuid({ error: 'Invalid incident id' }))
      .min(1, 'Select at least one case')
      .max(MAX_PAGE_SIZE, `At most ${MAX_PAGE_SIZE} cases at once`),
  ).optional(),
  sort: incidentSortSchema.default(DEFAULT_INCIDENT_SORT),
});
export type IncidentExportQuery = z.infer<typeof incidentExportQuerySchema>;

/**
 * One exported case: what the server may see, plus the ciphertext the browser decrypts for the
 * Identity column (spec §9), and the outcome, assignees and clocks of the extended export (the list's
 * own). The CSV itself is made in the browser.
 */
export const incidentExportRowSchema = incidentListItemSchema.pick({
  uuid: true,
  display_report_number: true,
  status: true,
  report_anonymously: true,
  created: true,
  updated: true,
  location: true,
  management_categories: true,
  full_name: true,
  keys: true,
  outcome: true,
  assignees: true,
  clocks: true,
});
export type IncidentExportRow = z.infer<typeof incidentExportRowSchema>;
export const INCIDENT_EXPORT_CONTENT_TYPE = 'application/x-ndjson';

/**
 * Ours beyond the spec (issue 23): GET /api/incident/search-corpus, `application/x-ndjson` with `X-Total-Count`,
 * one row per case the viewer may open (the list's visibility), with what the browser needs to search its words:
 * the keys and the encrypted report fields. Messages and notes are not in it; the words never leave the browser.
 */
/** The corpus takes no parameters: it is every case the viewer may open, whatever the list shows. */
export const searchCorpusQuerySchema = z.strictObject({});
export const incidentSearchCorpusRowSchema = z.object({
  uuid: z.uuid(),
  display_report_number: z.number().int().positive(),
  keys: incidentKeyMaterialSchema,
  fields: z.array(reportFieldSchema),
});
export type IncidentSearchCorpusRow = z.infer<typeof incidentSearchCorpusRowSchema>;
