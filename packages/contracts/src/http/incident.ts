import { z } from '../zod';
import { urlIdentifier, versionedString, REQUIRED_MESSAGE, requiredWhenMissing } from './common';
import { fingerprintSchema } from './keys';

const required = REQUIRED_MESSAGE;

/** Spec §9: the largest file, in bytes of plaintext. */
export const MAX_FILE_SIZE = 25_000_000;
/** What @whistle/crypto's `encryptFile` adds to a file besides padding: version byte (1), IV (12), GCM tag (16). */
export const FILE_CIPHERTEXT_OVERHEAD = 29;
/** Format 2 pads a length field (4 bytes) and the file to its Padmé size inside the encryption. */
const FILE_LENGTH_BYTES = 4;

/** @whistle/crypto's `paddedFileLength` (Padmé), for the sizes the file service checks; a test keeps them equal. */
function paddedFileLength(length: number): number {
  if (length < 2) return length;
  const exponent = 31 - Math.clz32(length);
  const step = 2 ** (exponent - (32 - Math.clz32(exponent)));
  return Math.ceil(length / step) * step;
}

/**
 * Bytes of the ciphertext of a file of `fileSize` bytes in @whistle/crypto's file format `version`: 1 (files
 * stored before padding) or 2 (padded).
 */
export function encryptedFileBytes(fileSize: number, version: 1 | 2): number {
  return version === 1
    ? fileSize + FILE_CIPHERTEXT_OVERHEAD
    : paddedFileLength(FILE_LENGTH_BYTES + fileSize) + FILE_CIPHERTEXT_OVERHEAD;
}

/** The largest ciphertext: the largest file, padded and encrypted (25,165,853 bytes). */
export const MAX_CIPHERTEXT_BYTES = encryptedFileBytes(MAX_FILE_SIZE, 2);

/**
 * Media type of the upload body: the spec's JSON document, sent under its own type so the generic
 * JSON parser (bounded by BODY_LIMIT, and buffering) leaves it to the file service, which streams it.
 */
export const FILE_UPLOAD_CONTENT_TYPE = 'application/vnd.whistle.incident-file-upload';

/**
 * Report form inputs that travel encrypted (spec §3). Ids, the channel and the anonymity flag stay
 * clear (ARCHITECTURE §5: plaintext the server may see) and are top-level fields of the payload.
 */
export const encryptedFieldNames = [
  'full_name',
  'email',
  'phone_number_code',
  'phone_number',
  'can_contact',
  'description',
  'location_detail',
  'date',
  'end_date',
  'people_involved',
  'outcome',
  'previous_report',
  'previous_report_details',
  // Not a form input: the language the discloser's page was in (a BCP 47 code), so the case team answers in it.
  // Encrypted like the rest: a rare language can narrow down who wrote.
  'language',
] as const;
export const encryptedFieldNameSchema = z.enum(encryptedFieldNames, { error: 'Unknown field name' });

export const reportChannelSchema = z.enum(['online', 'telephone', 'internal']);
export type ReportChannel = z.infer<typeof reportChannelSchema>;

/**
 * Incident statuses ("not shown" in the spec): EU directive 2019/1937 art. 9 and ISO 37002 (receive →
 * assess → address → conclude). Every report starts NEW; the moves allowed are in case-management.ts.
 */
export const incidentStatuses = ['NEW', 'ACKNOWLEDGED', 'ASSESSMENT', 'INVESTIGATION', 'CLOSED', 'REOPENED'] as const;
export const incidentStatusSchema = z.enum(incidentStatuses, { error: 'Unknown status' });
export type IncidentStatus = z.infer<typeof incidentStatusSchema>;

/** A report field, message or file name as @whistle/crypto wraps it to the incident key. */
export const encryptedText = versionedString(200_000);
/** Retrieval ids as the secret code carries them (`retrieval_id:passphrase`). */
export const retrievalIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'Invalid retrieval id');
const base64url = (length: number, message: string) =>
  z.string().regex(new RegExp(`^[A-Za-z0-9_-]{${length}}$`), message);

export const reportFieldSchema = z.strictObject({ name: encryptedFieldNameSchema, value: encryptedText });

/**
 * Not in the spec (docs/security.md, "Signed staff messages"): a staff member's signature over what they send the
 * discloser (`signStaffContent` of @whistle/crypto), over a nonce of their browser's. The server checks the shape and
 * stores it with the sender's current signing key's id; the discloser's browser checks the signature.
 */
export const staffSignatureSchema = z.strictObject({
  nonce: z.string().regex(/^v2\.[A-Za-z0-9_-]{22}$/, 'Invalid nonce'),
  signature: z.string().regex(/^v2\.[A-Za-z0-9_-]{86}$/, 'Invalid signature'),
});
export type StaffSignatureBody = z.infer<typeof staffSignatureSchema>;
export type ReportField = z.infer<typeof reportFieldSchema>;

export const incidentCredentialSchema = z.strictObject({
  public_key: versionedString(1024),
  aes_encrypted_private_key: versionedString(4096),
});

/** POST /api/incident/ (spec §3). `description` is required and arrives as an encrypted field. */
/** The report's proof of work: the challenge as the server gave it and the nonce that solves it. */
export const proofOfWorkSolutionSchema = z.strictObject({
  challenge: z.string('Invalid challenge').min(1, 'Invalid challenge').max(256, 'Invalid challenge'),
  nonce: z.string('Invalid nonce').regex(/^(0|[1-9][0-9]{0,15})$/, 'Invalid nonce'),
});
export type ProofOfWorkSolution = z.infer<typeof proofOfWorkSolutionSchema>;

/** GET /api/incident/challenge?url_identifier=: the proof of work a report to that company needs. */
export const proofOfWorkChallengeQuerySchema = z.object({ url_identifier: urlIdentifier });

/**
 * The challenge: `difficulty` leading zero bits of Argon2id (`@whistle/crypto`'s `solveProofOfWork`; 0: no work,
 * any nonce), for one report to that company, before `expires` (ISO 8601).
 */
export const proofOfWorkChallengeSchema = z.object({
  challenge: z.string(),
  difficulty: z.number().int().min(0),
  expires: z.iso.datetime(),
});
export type ProofOfWorkChallenge = z.infer<typeof proofOfWorkChallengeSchema>;

export const incidentCreateRequestSchema = z
  .strictObject({
    url_identifier: urlIdentifier,
    category_uuids: z.array(z.uuid('Invalid category id'), { error: requiredWhenMissing }).min(1, required).max(50),
    location_uuid: z.uuid({ error: (issue) => (issue.input === undefined ? required : 'Invalid location id') }),
    credential: incidentCredentialSchema,
    /**
     * Null only when the discloser excluded an admin (`excluded_key_ids`, docs/security.md "Keeping people out"): the
     * company key opens every admin's way in, so such a report is wrapped to the remaining readers' own keys alone.
     */
    company_encrypted_passphrase: versionedString(1024).nullable(),
    discloser_encrypted_passphrase: versionedString(1024),
    discloser_auth_token: base64url(43, 'Invalid auth token'),
    fields: z
      .array(reportFieldSchema)
      .max(encryptedFieldNames.length)
      .superRefine((fields, ctx) => {
        const names = fields.map((field) => field.name);
        if (new Set(names).size !== names.length)
          ctx.addIssue({ code: 'custom', message: 'Each field name may appear once' });
      }),
    aes_salt: base64url(22, 'Invalid salt'),
    aes_iv: base64url(16, 'Invalid iv'),
    report_anonymously: z.boolean(),
    report_channel: reportChannelSchema.default('online'),
    /**
     * Not in the spec: the answer to a `GET /api/incident/challenge`, required while the company's report volume
     * asks for work (docs/security.md, "Report flooding"); without it, or wrong, the report gets 400.
     */
    proof_of_work: proofOfWorkSolutionSchema.optional(),
    /**
     * Not in the spec: the `key_version` of the company view whose `public_key` wraps `company_encrypted_passphrase`.
     * A page loaded before a company key rotation that sends its report after the rotation ended gets 409 with an
     * error on this field, and makes its report again for the current key: a case wrapped to a deleted key would
     * be one nobody can read (docs/security.md, "Rotation"). Without it, the report is taken as before.
     */
    company_key_version: z.number().int().positive().optional(),
    /**
     * Not in the spec (docs/security.md, "Per-case grants"): the incident passphrase wrapped in the discloser's
     * browser to each key the company view lists for the chosen categories' default assignees, by its opaque
     * `key_id`. Stored only for a key of someone the report is assigned to by default; any other is left out.
     */
    grants: z
      .array(
        z.strictObject({
          key_id: z.uuid({ error: 'Invalid key id' }),
          wrapped_passphrase: versionedString(1024),
        }),
      )
      .max(50)
      .optional(),
    /**
     * Not in the spec (docs/security.md, "Keeping people out"): the readers the discloser keeps out, by the opaque
     * `key_id` the company view lists them under (a category's default assignee or an admin). None of them is
     * assigned, granted, notified or shown the case; at least one reader must remain, or the report is a 400.
     */
    excluded_key_ids: z
      .array(z.uuid({ error: 'Invalid key id' }))
      .max(200)
      .optional(),
    /**
     * Not in the spec (docs/security.md, "Reports taken by staff"), `POST /api/incident/recorded` only: the incident
     * passphrase wrapped in the recording staff member's browser to their own current key, named by its fingerprint,
     * so a handler who holds no company key opens the case they took (they are assigned it). Any other key is a 400.
     */
    recorder_grant: z
      .strictObject({ fingerprint: fingerprintSchema, wrapped_passphrase: versionedString(1024) })
      .optional(),
    /**
     * Not in the spec (docs/security.md, "Signed staff messages"): the case team's signing keys as the report form
     * saw them, sealed in the discloser's browser for the discloser alone; `discloser_encrypted_passphrase` (v2) is
     * bound to it. Stored as sent and handed back only to the discloser.
     */
    discloser_team_keys: versionedString(100_000).optional(),
  })
  .superRefine(
    (input, ctx) => {
      // Reported under `description`, the form input the spec marks required, not under `fields`.
      const fields: unknown = input.fields;
      if (
        !Array.isArray(fields) ||
        !fields.some((field) => (field as { name?: unknown } | null)?.name === 'description')
      ) {
        ctx.addIssue({ code: 'custom', path: ['description'], message: required });
      }
    },
    // Also when other fields are wrong, so the form shows every required field at once.
    { when: () => true },
  );
export type IncidentCreateRequest = z.infer<typeof incidentCreateRequestSchema>;

/**
 * `display_report_number` is ours beyond the spec (issue 26): the number the discloser's receipt names, the one staff
 * see on the case (a retried request answers its first report's).
 */
export const incidentCreateResponseSchema = z.object({
  uuid: z.uuid(),
  retrieval_id: retrievalIdSchema,
  display_report_number: z.number().int().positive(),
});
export type IncidentCreateResponse = z.infer<typeof incidentCreateResponseSchema>;

/**
 * Not in the spec (issue 26, directive art. 18): the channels of a report a staff member records
 * (`POST /api/incident/recorded`, staff token, the body of a report): a telephone call or a meeting, never `online`.
 */
export const staffRecordedChannels = ['telephone', 'internal'] as const;

/** The answer to `POST /api/incident/{incident_uuid}/record-approval` (the reporter's session): when they approved. */
export const recordApprovalSchema = z.object({ record_approved_at: z.iso.datetime({ offset: true }) });
export type RecordApproval = z.infer<typeof recordApprovalSchema>;

/** GET /api/incident/discloser query; the discloser auth token comes as `Authorization: Bearer`. */
export const discloserRetrievalQuerySchema = z.object({
  url_identifier: urlIdentifier,
  retrieval_id: retrievalIdSchema,
});

/** What the discloser's browser needs to open and show its incident (everything encrypted stays so). */
export const incidentDiscloserViewSchema = z.object({
  uuid: z.uuid(),
  display_report_number: z.number().int().positive(),
  status: z.object({ name: incidentStatusSchema }),
  report_channel: reportChannelSchema,
  report_anonymously: z.boolean(),
  created: z.iso.datetime({ offset: true }),
  updated: z.iso.datetime({ offset: true }),
  last_activity_at: z.iso.datetime({ offset: true }),
  location: z.object({ uuid: z.uuid(), name: z.string() }),
  categories: z.array(z.object({ uuid: z.uuid(), name: z.string(), parent_uuid: z.uuid().nullable() })),
  fields: z.array(reportFieldSchema),
  credential: incidentCredentialSchema,
  aes_salt: z.string(),
  aes_iv: z.string(),
  discloser_encrypted_passphrase: z.string(),
  /** Not in the spec: the sealed team key list sent with the report (null for one sent without). */
  discloser_team_keys: z.string().nullable().optional(),
  /** Discloser session token (JWT, ES256) for this incident only: `Authorization: Bearer` on later calls. */
  token: z.string(),
  token_expires_at: z.iso.datetime({ offset: true }),
  /**
   * Not in the spec (issue 26, directive art. 18): the report was recorded by the case team from the reporter's
   * telephone call or meeting, for the reporter to check and approve; `record_approved_at` is when they did.
   */
  recorded_by_staff: z.boolean().optional(),
  record_approved_at: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type IncidentDiscloserView = z.infer<typeof incidentDiscloserViewSchema>;

export const messageSenderSourceSchema = z.enum(['DISCLOSER', 'STAFF']);
export type MessageSenderSource = z.infer<typeof messageSenderSourceSchema>;

/** POST /api/incident/message/. Plaintext `text` is refused: the server never receives a message in clear. */
export const messageCreateRequestSchema = z.strictObject({
  incident_uuid: z.uuid(),
  content: encryptedText,
});
export type MessageCreateRequest = z.infer<typeof messageCreateRequestSchema>;

/** A message as answered by POST /api/incident/message/ and listed by GET /api/incident/{uuid}/message. */
export const incidentMessageSchema = z.object({
  uuid: z.uuid(),
  incident_uuid: z.uuid(),
  content: z.string(),
  created: z.iso.datetime({ offset: true }),
  sender: z.object({ name: z.string(), source: messageSenderSourceSchema }),
  /** A staff reply marked as the feedback the directive requires (it stops the feedback clock). */
  feedback: z.boolean().optional(),
  /** The message sent with the closing of the case (`final_message`): how it ended, in the company's words. */
  final: z.boolean().optional(),
  /**
   * Not in the spec: the sender's signature of a staff message, with the opaque id of the key that was the sender's
   * when it was sent (null: unsigned, a discloser's or an older one).
   */
  signature: staffSignatureSchema.extend({ signer_key_id: z.uuid() }).nullable().optional(),
});
export type IncidentMessage = z.infer<typeof incidentMessageSchema>;

/**
 * POST /api/incident/file/ metadata (spec §3), besides `content`: base64 of `encryptFile`'s
 * ciphertext. `file_name` is `encryptFile`'s `encrypted_file_name`, `encrypted_key` its wrapped file
 * key; `file_size` and `mime_type` stay clear (the server needs them). Sent as FILE_UPLOAD_CONTENT_TYPE.
 */
export const fileUploadMetadataSchema = z.strictObject({
  incident_uuid: z.uuid(),
  incident_message_uuid: z.uuid().nullable().default(null),
  mime_type: z
    .string()
    .max(255)
    .regex(/^[\w.+-]+\/[\w.+-]+$/, 'Invalid mime type'),
  file_name: versionedString(4096),
  encrypted_key: versionedString(1024),
  file_size: z.number().int().min(0).max(MAX_FILE_SIZE, 'Max file size is 25MB'),
  /**
   * Not in the spec (docs/security.md, "Signed staff messages"): a staff file's signature, flat as the upload body
   * is, all four or none. `content_digest` is SHA-256 of the ciphertext (base64url), which the server checks against
   * the bytes; `signer_key_id` is the sender's key id as the incident service answered their message.
   */
  signature: staffSignatureSchema.shape.signature.optional(),
  signature_nonce: staffSignatureSchema.shape.nonce.optional(),
  signer_key_id: z.uuid().optional(),
  content_digest: base64url(43, 'Invalid content digest').optional(),
});
export type FileUploadMetadata = z.infer<typeof fileUploadMetadataSchema>;

/** The fields of a staff file's signature in an upload: sent all together or not at all. */
export const FILE_SIGNATURE_FIELDS = ['signature', 'signature_nonce', 'signer_key_id', 'content_digest'] as const;

/** A file as listed by GET /api/incident/{uuid}/file (metadata only; name and key come with the file). */
export const incidentFileSummarySchema = z.object({
  uuid: z.uuid(),
  incident_uuid: z.uuid(),
  incident_message_uuid: z.uuid().nullable(),
  file_size: z.number().int(),
  mime_type: z.string(),
  created: z.iso.datetime({ offset: true }),
});
export type IncidentFileSummary = z.infer<typeof incidentFileSummarySchema>;

/** POST /api/incident/file/ answer, and GET /api/incident/file/{uuid} with `Accept: application/json`. */
export const incidentFileSchema = incidentFileSummarySchema.extend({
  file_name: z.string(),
  encrypted_key: z.string(),
  /** Not in the spec: SHA-256 of the ciphertext as uploaded, base64url (null: unsigned, a discloser's or older). */
  content_digest: z.string().nullable().optional(),
  /** Not in the spec: a staff file's signature over the case, name, key and digest (null: unsigned). */
  signature: staffSignatureSchema.extend({ signer_key_id: z.uuid() }).nullable().optional(),
});
export type IncidentFile = z.infer<typeof incidentFileSchema>;
