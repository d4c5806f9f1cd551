import { z } from '../zod';
import { countryCodes } from '../countries/countries';
import { companyCustomizationSchema } from './customization';
import { companyLanguagesSchema, discloserLanguageSchema } from './languages';
import { urlIdentifier, REQUIRED_MESSAGE, requiredWhenMissing } from './common';
import {
  authSecretSchema,
  kdfSaltSchema,
  keyEndorsementSchema,
  newPasswordKdfSchema,
  newPasswordPersonKeysSchema,
  publicKeySchema,
  sealedValueSchema,
} from './keys';

const required = REQUIRED_MESSAGE;
const trimmedRequired = (max: number) => z.string({ error: requiredWhenMissing }).trim().min(1, required).max(max);

/** POST /api/account/company (spec §3). */
export const companyCreateRequestSchema = z.strictObject({
  user_profile: z.strictObject({
    email: z
      .string({ error: requiredWhenMissing })
      .trim()
      .min(1, required)
      .max(254)
      .pipe(z.email('Invalid email address')),
    /** The authentication secret the browser derived from the password (the password never travels). */
    password: authSecretSchema,
    full_name: trimmedRequired(200),
    kdf: newPasswordKdfSchema,
    kdf_salt: kdfSaltSchema,
    /** The admin's own key pairs, their private halves sealed under the password's unlock key. */
    keys: newPasswordPersonKeysSchema,
    /**
     * Not in the spec (issue #29): the language of the page the company signed up on, the founding admin's. The
     * confirmation and welcome mails are in it, and it is the admin's mail language (English when it is not one of
     * the staff languages, or absent).
     */
    language: discloserLanguageSchema.optional(),
  }),
  name: trimmedRequired(200),
  credential: z.strictObject({
    /** The company private key sealed for the recovery kit (opens only with the kit the admin printed). */
    aes_encrypted_private_key: sealedValueSchema(),
    public_key: publicKeySchema,
  }),
  /** The admin's grant: the company private key wrapped to their own public key (no secret the server can use). */
  passphrase: sealedValueSchema(),
  country: z
    .string({ error: requiredWhenMissing })
    .trim()
    .min(1, required)
    .refine((code) => countryCodes.has(code), 'Unknown country'),
});
export type CompanyCreateRequest = z.infer<typeof companyCreateRequestSchema>;

export const companyCreateResponseSchema = z.object({ url_identifier: urlIdentifier });
export type CompanyCreateResponse = z.infer<typeof companyCreateResponseSchema>;

/**
 * POST /api/account/company/confirmation: the token of the link e-mailed to the first admin at onboarding (it
 * travels in the page's fragment, then in this body: never in a URL a server logs). Answers the company's
 * url_identifier: the company is active from then on.
 */
export const companyConfirmationRequestSchema = z.strictObject({
  token: z.string({ error: requiredWhenMissing }).trim().min(1, required).max(128),
});
export type CompanyConfirmationRequest = z.infer<typeof companyConfirmationRequestSchema>;

/**
 * A person who reads a category's new reports (a default assignee) or every report (an admin or reviewer), as the form
 * lists them: an opaque key id (no user id), their role, and their display name only when the company shows the case
 * team's names on the report form (`shows_recipient_names`: docs/security.md, "Keeping people out").
 */
export const recipientKeySchema = z.object({
  key_id: z.uuid(),
  public_key: z.string(),
  /**
   * Their ECDSA key: the report form pins it in the report, sealed for the discloser, whose page checks the case
   * team's signatures against it (docs/security.md, "Signed staff messages").
   */
  signing_public_key: z.string().optional(),
  role: z.enum(['ADMIN', 'REVIEWER', 'HANDLER']).optional(),
  display_name: z.string().nullable().optional(),
});
export type RecipientKey = z.infer<typeof recipientKeySchema>;

export const categorySummarySchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  parent_uuid: z.uuid().nullable(),
  /**
   * Not in the spec (docs/security.md, "Per-case grants"): the public keys of the category's default assignees, each
   * by an opaque key id only — no name, no user id. The report form wraps the new report's passphrase to them.
   */
  recipient_keys: z.array(recipientKeySchema).optional(),
});
export const locationSummarySchema = z.object({ uuid: z.uuid(), name: z.string() });

/** GET /api/account/company/{url_identifier}: what a discloser may see. Never staff data. */
export const companyPublicViewSchema = z.object({
  url_identifier: urlIdentifier,
  name: z.string(),
  /** The landing page's title, description and logo; each null when the company keeps the default. */
  customization: companyCustomizationSchema,
  /** The languages the page offers (its chooser lists these only) and the one a first visit falls back to. */
  languages: companyLanguagesSchema,
  /** The company key a new report is wrapped to (its fingerprint is computed and shown by the landing page). */
  public_key: z.string(),
  key_version: z.number().int().positive(),
  categories: z.array(categorySummarySchema),
  locations: z.array(locationSummarySchema),
  /**
   * Not in the spec (docs/security.md, "Keeping people out"): the company's admins and reviewers, who see every report
   * (admins read it through the company key); a report that excludes an admin is wrapped to the others' own keys.
   */
  every_case_keys: z.array(recipientKeySchema).optional(),
  /** Whether `display_name` is filled in: the company's choice, off by default (data minimisation). */
  shows_recipient_names: z.boolean().optional(),
  /**
   * Not in the spec (docs/security.md, "Signed staff messages"): admins' endorsements of team members' signing keys,
   * through which the discloser's page trusts a key that its report did not pin (a member approved or a key made
   * since). The discloser's browser checks each one; the server only stores what an admin of the company sent.
   */
  key_endorsements: z.array(keyEndorsementSchema).optional(),
  /** The company's id, which its endorsements name (one of another company's adds nothing). */
  company_id: z.uuid().optional(),
});
export type CompanyPublicView = z.infer<typeof companyPublicViewSchema>;

export { urlIdentifier as urlIdentifierSchema };
