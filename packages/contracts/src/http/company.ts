import { z } from 'zod';
import { countryCodes } from '../countries/countries';
import { companyCustomizationSchema } from './customization';
import { randomSecret, urlIdentifier, versionedString, REQUIRED_MESSAGE, requiredWhenMissing } from './common';

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
    password: z
      .string({ error: requiredWhenMissing })
      .min(1, required)
      .min(10, 'Password must be at least 10 characters')
      .max(256),
    full_name: trimmedRequired(200),
  }),
  name: trimmedRequired(200),
  credential: z.strictObject({
    aes_encrypted_private_key: versionedString(4096),
    public_key: versionedString(1024),
  }),
  passphrase: randomSecret,
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

export const categorySummarySchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  parent_uuid: z.uuid().nullable(),
});
export const locationSummarySchema = z.object({ uuid: z.uuid(), name: z.string() });

/** GET /api/account/company/{url_identifier}: what a discloser may see. Never staff data. */
export const companyPublicViewSchema = z.object({
  url_identifier: urlIdentifier,
  name: z.string(),
  /** The landing page's title, description and logo; each null when the company keeps the default. */
  customization: companyCustomizationSchema,
  public_key: z.string(),
  categories: z.array(categorySummarySchema),
  locations: z.array(locationSummarySchema),
});
export type CompanyPublicView = z.infer<typeof companyPublicViewSchema>;

export { urlIdentifier as urlIdentifierSchema };
