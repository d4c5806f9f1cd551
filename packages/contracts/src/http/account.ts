import { z } from '../zod';
import { roleSchema, REQUIRED_MESSAGE, requiredWhenMissing } from './common';
import { companyCustomizationSchema } from './customization';
import { companyLanguagesSchema, staffLanguageSchema } from './languages';
import {
  authSecretSchema,
  kdfSaltSchema,
  newPasswordKdfSchema,
  newPasswordPersonKeysSchema,
  passwordUpgradeSchema,
  sealedValueSchema,
} from './keys';

const required = REQUIRED_MESSAGE;
const email = z
  .string({ error: requiredWhenMissing })
  .trim()
  .min(1, required)
  .max(254)
  .pipe(z.email('Invalid email address'));
/** Spec §5/§9: exactly 6 numeric digits. */
const sixDigits = z.string({ error: requiredWhenMissing }).regex(/^[0-9]{6}$/, 'The code has exactly 6 digits');

/**
 * POST /api/account/token. `username` is the e-mail address; `password` the authentication secret the browser
 * derived (docs/security.md, "Keys"), or once, for an account from before, the password with its `upgrade`.
 */
export const loginRequestSchema = z.object({
  username: z.string({ error: requiredWhenMissing }).trim().min(1, required).max(254),
  password: z.string({ error: requiredWhenMissing }).min(1, required).max(256),
  upgrade: passwordUpgradeSchema.optional(),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/**
 * Answer of POST /api/account/token and POST /api/account/company/sso/token: either an access token,
 * or an MFA challenge whose `challenge_id` the browser sends as its Bearer token to /api/account/token/mfa.
 */
export const loginResponseSchema = z.union([
  z.object({ token: z.string() }),
  z.object({ mfa_required: z.literal(true), challenge_id: z.string() }),
]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** POST /api/account/token/mfa (Bearer: the challenge_id). */
export const mfaChallengeRequestSchema = z.object({ challenge_code: sixDigits });
export type MfaChallengeRequest = z.infer<typeof mfaChallengeRequestSchema>;

export const tokenResponseSchema = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** POST /api/account/company/profile/mfa: no body creates a new pending factor; `challenge_code` enables it. */
export const mfaSetupRequestSchema = z.object({ challenge_code: sixDigits.optional() });
export type MfaSetupRequest = z.infer<typeof mfaSetupRequestSchema>;
/** `qr_code` is a PNG data URL of the otpauth URI; `secret` (base32) is for manual entry in an authenticator app. */
export const mfaSetupResponseSchema = z.object({ qr_code: z.string(), secret: z.string() });
export type MfaSetupResponse = z.infer<typeof mfaSetupResponseSchema>;

/**
 * PUT /api/account/profile with a staff token: the full name, or a new password given the current one. Both are
 * authentication secrets; the private keys come re-sealed under the new password's unlock key.
 */
export const profileUpdateRequestSchema = z.union([
  z.strictObject({ full_name: z.string({ error: requiredWhenMissing }).trim().min(1, required).max(200) }),
  z.strictObject({
    password: authSecretSchema,
    kdf: newPasswordKdfSchema,
    kdf_salt: kdfSaltSchema,
    /** Checked by the service (absent or wrong: 'The current password is wrong'). */
    current_password: z.string().max(256).optional(),
    sealed_private_keys: sealedValueSchema().optional(),
  }),
]);
export type ProfileUpdateRequest = z.infer<typeof profileUpdateRequestSchema>;

/**
 * PUT /api/account/profile with an invitation or reset link's token: the first (or a new) password and, made with
 * it, a new key pair. After a reset the old keys are gone with the old password: access to reports must be
 * restored (recovery kit or another admin).
 */
export const linkPasswordRequestSchema = z.strictObject({
  password: authSecretSchema,
  kdf: newPasswordKdfSchema,
  kdf_salt: kdfSaltSchema,
  keys: newPasswordPersonKeysSchema,
});
export type LinkPasswordRequest = z.infer<typeof linkPasswordRequestSchema>;

export const userProfileSchema = z.object({
  uuid: z.uuid(),
  email: z.string(),
  full_name: z.string(),
  roles: z.array(roleSchema),
  /** Set while a TOTP factor is enabled; null otherwise. */
  mfa_auth_factor_id: z.uuid().nullable(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/**
 * Answer of PUT /api/account/profile with a staff token. A password change ends every other session;
 * `token` (present then) replaces the caller's own.
 */
export const profileUpdateResponseSchema = userProfileSchema.extend({ token: z.string().optional() });
export type ProfileUpdateResponse = z.infer<typeof profileUpdateResponseSchema>;

/** POST /api/account/company/user_profile/ (ADMIN): an invitation with a set-password link is e-mailed. */
export const userProfileCreateRequestSchema = z.strictObject({
  email,
  full_name: z.string({ error: requiredWhenMissing }).trim().min(1, required).max(200),
  roles: z
    .array(roleSchema, { error: requiredWhenMissing })
    .min(1, required)
    .transform((roles) => [...new Set(roles)]),
  /**
   * Not in the spec (issue #29): the new member's language, of their invitation and later mails. Absent: the
   * company's default language if it is a staff language, else the inviting admin's own.
   */
  language: staffLanguageSchema.optional(),
});
export type UserProfileCreateRequest = z.infer<typeof userProfileCreateRequestSchema>;

/**
 * GET and PUT /api/account/profile/notifications (staff): the signed-in member's own e-mail preferences, the
 * language of their mails and which kinds (spec §3 options) they want; the company's switches still apply.
 */
export const mailPreferencesSchema = z.strictObject({
  language: staffLanguageSchema,
  notifications: z.strictObject({
    new_incidents: z.boolean({ error: requiredWhenMissing }),
    assigned_to_an_incident: z.boolean({ error: requiredWhenMissing }),
    incident_updates: z.boolean({ error: requiredWhenMissing }),
    deadlines: z.boolean({ error: requiredWhenMissing }),
  }),
});
export type MailPreferences = z.infer<typeof mailPreferencesSchema>;

/** A member as the admin's team page lists them. */
export const teamMemberSchema = userProfileSchema.extend({
  last_sign_in_at: z.iso.datetime({ offset: true }).nullable(),
  /** Invited and no password chosen yet: the invitation can be sent again. */
  invitation_pending: z.boolean(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

/**
 * PUT /api/account/company/user_profile/ (ADMIN): a member's new roles. The last admin keeps ADMIN; the
 * member's earlier sessions end (their tokens carry the old roles).
 */
export const userRolesUpdateRequestSchema = z.strictObject({
  uuid: z.uuid({ error: 'Invalid uuid' }),
  roles: z
    .array(roleSchema, { error: requiredWhenMissing })
    .min(1, required)
    .transform((roles) => [...new Set(roles)]),
});
export type UserRolesUpdateRequest = z.infer<typeof userRolesUpdateRequestSchema>;

/** POST /api/account/company/user_profile/invitation (ADMIN): e-mails a new invitation link to a member who has none used. */
export const invitationResendRequestSchema = z.strictObject({ uuid: z.uuid({ error: 'Invalid uuid' }) });

/** DELETE /api/account/company/user_profile/ (ADMIN), JSON body. */
export const userProfileDeleteRequestSchema = z.strictObject({ uuid: z.uuid({ error: 'Invalid uuid' }) });
export type UserProfileDeleteRequest = z.infer<typeof userProfileDeleteRequestSchema>;

/** GET /api/account/company/: the signed-in user's own company. */
export const ownCompanySchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  country: z.string(),
  url_identifier: z.string(),
  public_key: z.string(),
  logo: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  /** The landing page's title and description in other languages (see the customization). */
  translations: companyCustomizationSchema.shape.translations,
  languages: companyLanguagesSchema,
  mfa_required: z.boolean(),
  sso_enabled: z.boolean(),
  settings: z.object({
    resolution_deadline_days: z.number().int(),
    notifications: z.record(z.string(), z.boolean()),
    /** Whether the report form shows the case team's names (docs/security.md, "Keeping people out"). */
    shows_recipient_names: z.boolean().optional(),
  }),
  user_profiles: z.array(teamMemberSchema),
  /** Top-level labels and their sub-categories, each with its default assignees (`user_profiles`). */
  categories: z.array(
    z.object({
      uuid: z.uuid(),
      name: z.string(),
      parent_uuid: z.uuid().nullable(),
      is_active: z.boolean(),
      user_profiles: z.array(z.uuid()),
    }),
  ),
  locations: z.array(z.object({ uuid: z.uuid(), name: z.string(), is_active: z.boolean() })),
});
export type OwnCompany = z.infer<typeof ownCompanySchema>;

/** PUT /api/account/company/sso (ADMIN): the company's SAML 2.0 identity provider. */
export const ssoSettingsRequestSchema = z.strictObject({
  enabled: z.boolean({ error: requiredWhenMissing }),
  entry_point: z.url({ protocol: /^https?$/, error: 'Invalid URL' }).max(2048),
  /** The IdP signing certificate, PEM or bare base64. */
  idp_certificate: z.string({ error: requiredWhenMissing }).trim().min(1, required).max(16384),
  /** SAML attribute holding the user's e-mail; empty means the NameID. */
  email_attribute: z.string().trim().max(256).default(''),
  /**
   * Staff other than admins may sign in only through the IdP (password sign-in refused); admins keep
   * password sign-in as the break-glass path. Only with `enabled`.
   */
  require_sso: z.boolean().default(false),
});
export type SsoSettingsRequest = z.infer<typeof ssoSettingsRequestSchema>;

/** What the configured IdP signing certificate says of itself (read by the server, for the admin to check). */
export const ssoCertificateSchema = z.object({
  subject: z.string(),
  issuer: z.string(),
  valid_from: z.iso.datetime({ offset: true }),
  valid_to: z.iso.datetime({ offset: true }),
  /** SHA-256 fingerprint, colon-separated hex, as IdP consoles show it. */
  fingerprint_sha256: z.string(),
});
export type SsoCertificate = z.infer<typeof ssoCertificateSchema>;

/** GET/PUT /api/account/company/sso: the settings (empty and `configured: false` before the first save). */
export const ssoSettingsResponseSchema = z.object({
  configured: z.boolean(),
  enabled: z.boolean(),
  require_sso: z.boolean(),
  entry_point: z.string(),
  idp_certificate: z.string(),
  /** Null when nothing is configured, or when a certificate stored earlier cannot be read. */
  certificate: ssoCertificateSchema.nullable(),
  email_attribute: z.string(),
  /** What the IdP needs to know about us. */
  service_provider: z.object({ entity_id: z.string(), acs_url: z.string() }),
});
export type SsoSettingsResponse = z.infer<typeof ssoSettingsResponseSchema>;

/** POST /api/account/company/sso/redirect, form-encoded. */
export const ssoRedirectRequestSchema = z.object({ email });
/** POST /api/account/company/sso/token. */
export const ssoTokenRequestSchema = z.object({
  code: z.string({ error: requiredWhenMissing }).min(1, required).max(128),
});

/** PUT /api/account/company/mfa (ADMIN): require MFA of every staff member. */
export const companyMfaRequestSchema = z.strictObject({ mfa_required: z.boolean({ error: requiredWhenMissing }) });
export type CompanyMfaRequest = z.infer<typeof companyMfaRequestSchema>;
