import { z } from '../zod';
import { REQUIRED_MESSAGE, requiredWhenMissing, roleSchema } from './common';

/**
 * Keys held by people (docs/security.md, "Keys"). The server stores public keys, fingerprints and wrappings;
 * nothing here opens a report without a secret that only a browser holds.
 */

/** The answer a page made before people held keys gets: it must reload to get the code that derives keys. */
export const OUTDATED_CLIENT_MESSAGE = 'This page is out of date: reload it and try again';

const outdated = (pattern: RegExp) =>
  z.string({ error: requiredWhenMissing }).min(1, REQUIRED_MESSAGE).regex(pattern, OUTDATED_CLIENT_MESSAGE);

/** What the browser derives from a password and sends as the spec's `password` (never the password itself). */
export const authSecretSchema = outdated(/^v2\.[A-Za-z0-9_-]{43}$/);
/** 16 random bytes, base64url, made by the browser for a new password or unlock passphrase. */
export const kdfSaltSchema = z.string({ error: requiredWhenMissing }).regex(/^[A-Za-z0-9_-]{22}$/, 'Invalid salt');
/**
 * The key derivation a salt was made for (a name of `PARAMS.v2.kdfs` in @whistle/crypto): v1 (3 passes) is still
 * derived for the accounts that have it, v2 (2 passes) is what every new salt is made for.
 */
export const kdfNameSchema = z.enum(['argon2id-v1', 'argon2id-v2'], { error: 'Unknown key derivation' });
export type KdfName = z.infer<typeof kdfNameSchema>;
/**
 * Beside a new password's `kdf_salt`: the key derivation the page derived it with, stored as it says. Absent, it is
 * argon2id-v1, the only one a page from before v2 knew: a page left open across the upgrade keeps its account able
 * to sign in, where recording the server's current kdf would lock it out.
 */
export const newPasswordKdfSchema = kdfNameSchema.optional().transform((kdf): KdfName => kdf ?? 'argon2id-v1');
/** A P-256 public key: `v1.` and the 65-byte uncompressed point. */
export const publicKeySchema = z
  .string({ error: requiredWhenMissing })
  .regex(/^v1\.[A-Za-z0-9_-]{87}$/, 'Invalid public key');
/** A value the v2 protocol wrote (sealed copies, grants): `v2.` and base64url parts. */
export const sealedValueSchema = (max = 4096) => outdated(/^v2\.[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/).max(max);
/** `K3VQ 8M2X …`: what people compare (5 groups of 4 Crockford base32 symbols). */
export const fingerprintSchema = z
  .string({ error: requiredWhenMissing })
  .regex(/^[0-9A-HJKMNP-TV-Z]{4}( [0-9A-HJKMNP-TV-Z]{4}){4}$/, 'Invalid fingerprint');

export const personPublicKeysSchema = z.object({
  public_key: publicKeySchema,
  signing_public_key: publicKeySchema,
});

/** One way to unlock one's private keys: each is a sealed copy of them under its own key. */
export const unlockMethodInputSchema = z.discriminatedUnion(
  'method',
  [
    z.strictObject({ method: z.literal('password'), sealed_private_keys: sealedValueSchema() }),
    z.strictObject({
      method: z.literal('passkey'),
      /** The WebAuthn credential id (base64url), to ask the authenticator for this passkey. */
      credential_id: z.string().regex(/^[A-Za-z0-9_-]{16,1366}$/, 'Invalid credential id'),
      /** The PRF input (32 random bytes, base64url): the authenticator's output for it opens this copy. */
      prf_salt: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid PRF salt'),
      label: z.string().trim().min(1, REQUIRED_MESSAGE).max(100),
      sealed_private_keys: sealedValueSchema(),
    }),
    z.strictObject({
      method: z.literal('passphrase'),
      kdf: kdfNameSchema,
      kdf_salt: kdfSaltSchema,
      sealed_private_keys: sealedValueSchema(),
    }),
  ],
  { error: 'Unknown unlock method' },
);
export type UnlockMethodInput = z.infer<typeof unlockMethodInputSchema>;

/** A person's new key pairs, with the first way to unlock them. */
export const newPersonKeysSchema = personPublicKeysSchema.extend({ unlock: unlockMethodInputSchema });
export type NewPersonKeys = z.infer<typeof newPersonKeysSchema>;

/** The new person keys of a password account: unlocked by that password. */
export const newPasswordPersonKeysSchema = personPublicKeysSchema.extend({
  unlock: z.strictObject({ method: z.literal('password'), sealed_private_keys: sealedValueSchema() }),
});
export type NewPasswordPersonKeys = z.infer<typeof newPasswordPersonKeysSchema>;

/** POST /api/account/token/salt: the salt to derive the authentication secret with, for any address. */
export const saltRequestSchema = z.strictObject({
  username: z.string({ error: requiredWhenMissing }).trim().min(1, REQUIRED_MESSAGE).max(254),
});
/**
 * `legacy` only for an account whose password was set before people held keys: its next sign-in sends the
 * password once more, with `upgrade` (docs/security.md, "Migration"). Unknown addresses get a stable salt of
 * their own, so the answer tells nothing about which accounts exist.
 */
export const saltResponseSchema = z.union([
  z.object({ kdf: kdfNameSchema, salt: kdfSaltSchema }),
  z.object({ kdf: z.literal('legacy') }),
]);
export type SaltResponse = z.infer<typeof saltResponseSchema>;

/** The upgrade a legacy account's last password sign-in carries. */
export const passwordUpgradeSchema = z.strictObject({
  kdf: newPasswordKdfSchema,
  kdf_salt: kdfSaltSchema,
  auth_secret: authSecretSchema,
});

/**
 * PUT /api/account/profile/password/kdf (staff token): the same password, derived again with the current kdf,
 * after a sign-in whose salt named an older one. `current_password` is the secret of the old derivation (the
 * proof); the private keys' password copy comes re-sealed under the new unlock key. No session ends: the password
 * did not change (docs/security.md, "Migration").
 */
export const passwordKdfUpgradeRequestSchema = z.strictObject({
  kdf: z.literal('argon2id-v2', { error: 'Unknown key derivation' }),
  password: authSecretSchema,
  kdf_salt: kdfSaltSchema,
  current_password: authSecretSchema,
  sealed_private_keys: sealedValueSchema().optional(),
});
export type PasswordKdfUpgradeRequest = z.infer<typeof passwordKdfUpgradeRequestSchema>;

/** What a stored unlock method gives back to its owner's browser (never to anyone else). */
export const unlockMethodSchema = z.object({
  id: z.uuid(),
  method: z.enum(['password', 'passkey', 'passphrase']),
  sealed_private_keys: z.string(),
  credential_id: z.string().nullable(),
  prf_salt: z.string().nullable(),
  kdf: z.string().nullable(),
  kdf_salt: z.string().nullable(),
  label: z.string().nullable(),
  created: z.iso.datetime({ offset: true }),
});
export type UnlockMethod = z.infer<typeof unlockMethodSchema>;

/** GET /api/account/profile/keys: the signed-in person's own keys (null until made) and how to unlock them. */
export const ownKeysResponseSchema = z.object({
  /** The salt of the caller's password (null without a password, e.g. SSO only): a password change derives with it. */
  password: z.object({ kdf: kdfNameSchema, salt: kdfSaltSchema }).nullable(),
  person: personPublicKeysSchema
    .extend({ fingerprint: fingerprintSchema, unlock: z.array(unlockMethodSchema) })
    .nullable(),
});
export type OwnKeysResponse = z.infer<typeof ownKeysResponseSchema>;

export const companyKeyRotationSchema = z.object({
  previous_key_version: z.number().int().positive(),
  previous_public_key: publicKeySchema,
  /** The caller's wrapping of the previous key, null when they hold none. */
  previous_grant: z.string().nullable(),
  started_at: z.iso.datetime({ offset: true }),
  started_by: z.uuid().nullable(),
});
export type CompanyKeyRotation = z.infer<typeof companyKeyRotationSchema>;

/** GET /api/account/company/keys: the company key as the signed-in person may have it. */
export const companyKeysResponseSchema = z.object({
  key_version: z.number().int().positive(),
  public_key: publicKeySchema,
  /** The company private key wrapped to the caller (an admin approved them), else null. */
  grant: z.string().nullable(),
  /** ADMIN only: the recovery kit's copy of the current key (opens only with the kit). */
  recovery: z.object({ aes_encrypted_private_key: z.string() }).nullable(),
  /** A company that has not migrated yet: what opens its key the old way, until an admin moves it. */
  legacy: z.object({ aes_encrypted_private_key: z.string(), passphrase: z.string() }).nullable(),
  /** The caller's own pending request for access, if any. */
  access_request: z.object({ id: z.uuid(), expires_at: z.iso.datetime({ offset: true }) }).nullable(),
  /**
   * While a rotation re-wraps the cases (docs/security.md, "Rotation"): the key being replaced and the caller's own
   * grant of it, with which their browser opens the cases not yet re-wrapped (and resumes the re-wrapping).
   */
  rotation: companyKeyRotationSchema.nullable(),
});
export type CompanyKeysResponse = z.infer<typeof companyKeysResponseSchema>;

/** A person's keys as the team sees them (public keys and fingerprints are not secret). */
export const teamKeySchema = z.object({
  user_id: z.uuid(),
  full_name: z.string(),
  roles: z.array(roleSchema),
  /** The opaque id of their current key (what an endorsement and the public company view name), null without keys. */
  key_id: z.uuid().nullable().optional(),
  public_key: z.string().nullable(),
  signing_public_key: z.string().nullable(),
  fingerprint: z.string().nullable(),
  /** For admins: whether they hold the current company key. */
  company_key: z.enum(['granted', 'missing']),
  access_request: z
    .object({
      id: z.uuid(),
      fingerprint: z.string(),
      created: z.iso.datetime({ offset: true }),
      expires_at: z.iso.datetime({ offset: true }),
    })
    .nullable(),
  /**
   * Whether an admin's browser endorsed their current key in their current role (docs/security.md, "Signed staff
   * messages"): a key made since (a reset) or a new role needs a new endorsement.
   */
  endorsed: z.boolean().optional(),
});
export type TeamKey = z.infer<typeof teamKeySchema>;
export const teamKeysResponseSchema = z.object({ people: z.array(teamKeySchema) });
export type TeamKeysResponse = z.infer<typeof teamKeysResponseSchema>;

/**
 * POST /api/account/company/keys/endorsements (ADMIN): the admin's browser confirmed a team member's key and signed
 * (`endorseTeamKey` of @whistle/crypto) that it belongs to the case team of the admin's company, with the admin's
 * current signing key (`endorser_key_id`). The company is the admin's own, so it is not sent.
 */
export const keyEndorsementRequestSchema = z.strictObject({
  key_id: z.uuid({ error: 'Invalid key id' }),
  signing_public_key: publicKeySchema,
  role: roleSchema,
  endorsed_at: z.iso.datetime({ offset: true, error: 'Invalid date' }),
  endorser_key_id: z.uuid({ error: 'Invalid key id' }),
  /** `v2.` and the 64-byte P1363 ECDSA signature. */
  signature: z.string({ error: requiredWhenMissing }).regex(/^v2\.[A-Za-z0-9_-]{86}$/, 'Invalid signature'),
});
export type KeyEndorsementRequest = z.infer<typeof keyEndorsementRequestSchema>;

/** An endorsement as the discloser's browser receives it (the public company view): what was signed, and the signature. */
export const keyEndorsementSchema = z.object({
  company_id: z.uuid(),
  key_id: z.uuid(),
  signing_public_key: z.string(),
  role: roleSchema,
  endorsed_at: z.string(),
  endorser_key_id: z.uuid(),
  signature: z.string(),
});
export type KeyEndorsementView = z.infer<typeof keyEndorsementSchema>;

/** POST /api/account/company/keys/migration (ADMIN of a legacy company): its key, now held by the caller and the kit. */
export const companyKeyMigrationRequestSchema = z.strictObject({
  grant: sealedValueSchema(),
  aes_encrypted_private_key: sealedValueSchema(),
});

/**
 * POST /api/account/company/keys/grants (ADMIN): the company key wrapped to an admin, after the granter compared
 * `fingerprint` with the person; refused if their key changed since. A person may grant to themselves with the
 * recovery kit.
 */
export const companyKeyGrantRequestSchema = z.strictObject({
  user_id: z.uuid({ error: 'Invalid uuid' }),
  key_version: z.number().int().positive(),
  fingerprint: fingerprintSchema,
  grant: sealedValueSchema(),
  /** The request this grant answers, if any: an expired one is refused (the person must ask again). */
  request_id: z.uuid({ error: 'Invalid uuid' }).optional(),
});
export type CompanyKeyGrantRequest = z.infer<typeof companyKeyGrantRequestSchema>;

/** PUT /api/account/company/keys/recovery (ADMIN with access): a new recovery kit; the old one stops working. */
export const recoveryKitRequestSchema = z.strictObject({
  key_version: z.number().int().positive(),
  aes_encrypted_private_key: sealedValueSchema(),
});

/**
 * POST /api/account/company/keys/rotation (ADMIN holding the key): a new company key pair made in the caller's
 * browser, replacing `key_version`. `grants` wraps it to every person who holds the current key (fingerprints as
 * the page showed them, the caller among them); `aes_encrypted_private_key` seals it for a new recovery kit (the
 * old kit opens only the old key, which goes when the rotation completes). 409 while another rotation runs.
 */
export const companyKeyRotationRequestSchema = z.strictObject({
  key_version: z.number().int().positive(),
  public_key: publicKeySchema,
  aes_encrypted_private_key: sealedValueSchema(),
  grants: z
    .array(
      z.strictObject({
        user_id: z.uuid({ error: 'Invalid uuid' }),
        fingerprint: fingerprintSchema,
        grant: sealedValueSchema(),
      }),
    )
    .min(1, REQUIRED_MESSAGE)
    .max(1000),
});
export type CompanyKeyRotationRequest = z.infer<typeof companyKeyRotationRequestSchema>;
