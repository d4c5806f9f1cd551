import { z } from '../zod';
import { countryCodes } from '../countries/countries';
import { REQUIRED_MESSAGE, requiredWhenMissing } from './common';

const required = REQUIRED_MESSAGE;
const labelName = z.string({ error: requiredWhenMissing }).trim().min(1, required).max(200);
/** Spec §3 notification settings options. */
export const NOTIFICATION_SETTINGS = [
  'new_incidents',
  'assigned_to_an_incident',
  'incident_updates',
  'deadlines',
] as const;
export type NotificationSetting = (typeof NOTIFICATION_SETTINGS)[number];
/** A resolution deadline longer than this is a typing mistake, not a policy. */
export const MAX_RESOLUTION_DEADLINE_DAYS = 3650;

/**
 * PUT /api/account/company (ADMIN), spec §7: name and country, or settings {resolution_deadline_days}, or
 * settings {notifications map of booleans}. Name and country travel together (both required, spec §5).
 */
export const companyUpdateRequestSchema = z
  .strictObject({
    name: labelName.optional(),
    country: z
      .string()
      .trim()
      .min(1, required)
      .refine((code) => countryCodes.has(code), 'Unknown country')
      .optional(),
    settings: z
      .strictObject({
        resolution_deadline_days: z
          .number({ error: 'A whole number of days is required' })
          .int('A whole number of days is required')
          .min(0, 'Ensure this value is greater than or equal to 0')
          .max(
            MAX_RESOLUTION_DEADLINE_DAYS,
            `Ensure this value is less than or equal to ${MAX_RESOLUTION_DEADLINE_DAYS}`,
          )
          .optional(),
        notifications: z
          .strictObject(Object.fromEntries(NOTIFICATION_SETTINGS.map((name) => [name, z.boolean().optional()])))
          .optional(),
        /**
         * Not in the spec (docs/security.md, "Keeping people out"): whether the report form names the case team, so a
         * discloser can keep someone out by name. Off until an admin turns it on (data minimisation).
         */
        shows_recipient_names: z.boolean().optional(),
      })
      .optional(),
  })
  .superRefine((body, context) => {
    if (body.name === undefined && body.country === undefined && body.settings === undefined)
      context.addIssue({ code: 'custom', path: ['name'], message: required });
    if (body.name !== undefined && body.country === undefined)
      context.addIssue({ code: 'custom', path: ['country'], message: required });
    if (body.country !== undefined && body.name === undefined)
      context.addIssue({ code: 'custom', path: ['name'], message: required });
  });
export type CompanyUpdateRequest = z.infer<typeof companyUpdateRequestSchema>;

/** A sub-category in a label's form: kept (and renamed) when it has a uuid, added when it has none. */
const subCategoryInput = z.strictObject({ uuid: z.uuid().optional(), name: labelName });
const assigneeIds = z.array(z.uuid()).max(200);

/**
 * POST /api/account/company/category/ (ADMIN): a top-level reporting label and its sub-categories
 * (`management_categories`, spec §5: required, may be empty), with its default assignees.
 */
export const categoryCreateRequestSchema = z.strictObject({
  name: labelName,
  management_categories: z.array(subCategoryInput, { error: requiredWhenMissing }).max(100),
  user_profiles: assigneeIds.default([]),
});
export type CategoryCreateRequest = z.infer<typeof categoryCreateRequestSchema>;

/**
 * PUT /api/account/company/category/{category_uuid} (ADMIN): the edit form (name with its sub-categories),
 * or the assignees (`user_profiles`), or `is_active`. Sub-categories missing from the list are removed.
 */
export const categoryUpdateRequestSchema = z
  .strictObject({
    name: labelName.optional(),
    management_categories: z.array(subCategoryInput).max(100).optional(),
    user_profiles: assigneeIds.optional(),
    is_active: z.boolean().optional(),
  })
  .superRefine((body, context) => {
    if (body.name !== undefined && body.management_categories === undefined)
      context.addIssue({ code: 'custom', path: ['management_categories'], message: required });
    if (body.management_categories !== undefined && body.name === undefined)
      context.addIssue({ code: 'custom', path: ['name'], message: required });
    if (Object.values(body).every((value) => value === undefined))
      context.addIssue({ code: 'custom', path: ['name'], message: required });
  });
export type CategoryUpdateRequest = z.infer<typeof categoryUpdateRequestSchema>;

const categoryNode = z.object({
  uuid: z.uuid(),
  name: z.string(),
  parent_uuid: z.uuid().nullable(),
  is_active: z.boolean(),
});

/** A reporting label as the settings pages show it (spec §3 Category). */
export const categorySchema = categoryNode.extend({
  /** Default assignees of new reports with this label. */
  user_profiles: z.array(z.uuid()),
  /** Its sub-categories. */
  management_categories: z.array(categoryNode),
});
export type Category = z.infer<typeof categorySchema>;

/** POST /api/account/company/location/ and PUT …/location/{location_uuid} (ADMIN). */
export const locationRequestSchema = z.strictObject({ name: labelName, is_active: z.boolean().optional() });
export type LocationRequest = z.infer<typeof locationRequestSchema>;

export const locationSchema = z.object({ uuid: z.uuid(), name: z.string(), is_active: z.boolean() });
export type Location = z.infer<typeof locationSchema>;

/**
 * Answer of DELETE on a label or location: deleted, or kept inactive because cases carry it (their names
 * must survive), which the page tells the admin.
 */
export const labelDeleteResponseSchema = z.object({ outcome: z.enum(['deleted', 'deactivated']) });
export type LabelDeleteResponse = z.infer<typeof labelDeleteResponseSchema>;
