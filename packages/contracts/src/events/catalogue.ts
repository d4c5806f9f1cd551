import { z } from 'zod';

/**
 * The event catalogue: name → version → payload schema. A change of shape is a new version, never an edit.
 * Only ids, numbers, statuses and staff account facts travel here; never report content.
 */
export const eventCatalogue = {
  'company.created': {
    1: z.object({
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
    }),
  },
  'user.created': {
    1: z.object({
      user_id: z.uuid(),
      email: z.email(),
      full_name: z.string(),
      roles: z.array(z.enum(['ADMIN', 'REVIEWER', 'HANDLER'])).min(1),
    }),
  },
  /** A staff access token was revoked (logout) before it expired: every service refuses its jti until `expires_at`. */
  'token.revoked': {
    1: z.object({ jti: z.string().min(1), user_id: z.uuid(), expires_at: z.iso.datetime({ offset: true }) }),
  },
  /** A staff account was removed: every service refuses its tokens issued up to `deleted_at`. */
  'user.deleted': {
    1: z.object({ user_id: z.uuid(), deleted_at: z.iso.datetime({ offset: true }) }),
  },
  /** A report was filed. Ids, number and clear flags only: fields stay encrypted in the incident service. */
  'incident.created': {
    1: z.object({
      incident_id: z.uuid(),
      display_report_number: z.number().int().positive(),
      status: z.string(),
      report_channel: z.enum(['online', 'telephone', 'internal']),
      report_anonymously: z.boolean(),
      category_ids: z.array(z.uuid()),
      location_id: z.uuid(),
    }),
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
