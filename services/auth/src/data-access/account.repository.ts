import type { Queryable } from '@whistle/service-kit';
import type { Role } from '@whistle/contracts';

export interface UserRow {
  id: string;
  company_id: string;
  email: string;
  full_name: string;
  password_hash: string | null;
  roles: Role[];
  mfa_secret: string | null;
  mfa_factor_id: string | null;
  mfa_pending_secret: string | null;
  mfa_last_time_step: string | null;
  failed_logins: number;
  locked_until: Date | null;
  company_mfa_required: boolean;
}

export type OneTimePurpose = 'mfa_challenge' | 'password_reset' | 'invitation' | 'sso_code';

export interface OneTimeSecretRow {
  purpose: OneTimePurpose;
  user_id: string;
  company_id: string;
  attempts: number;
}

const userColumns = `u.id, u.company_id, u.email, u.full_name, u.password_hash, u.roles, u.mfa_secret, u.mfa_factor_id,
  u.mfa_pending_secret, u.mfa_last_time_step, u.failed_logins, u.locked_until, c.mfa_required as company_mfa_required`;

/** Staff accounts and their sign-in state. Reads of a known user are scoped by company id as well. */
export const accountRepository = {
  async userByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
    const { rows } = await db.query<UserRow>(
      `select ${userColumns} from auth.user_profile u join auth.company c on c.id = u.company_id where lower(u.email) = lower($1)`,
      [email],
    );
    return rows[0];
  },

  async user(db: Queryable, companyId: string, userId: string): Promise<UserRow | undefined> {
    const { rows } = await db.query<UserRow>(
      `select ${userColumns} from auth.user_profile u join auth.company c on c.id = u.company_id where u.company_id = $1 and u.id = $2`,
      [companyId, userId],
    );
    return rows[0];
  },

  async recordFailedLogin(
    db: Queryable,
    userId: string,
    lockAfter: number,
    lockMs: number,
  ): Promise<{ locked: boolean }> {
    // One statement, so concurrent wrong guesses cannot slip past the threshold together.
    const { rows } = await db.query<{ locked: boolean }>(
      `update auth.user_profile
          set failed_logins = case when failed_logins + 1 >= $2 then 0 else failed_logins + 1 end,
              locked_until = case when failed_logins + 1 >= $2 then now() + ($3::int * interval '1 millisecond') else locked_until end
        where id = $1
      returning failed_logins = 0 as locked`,
      [userId, lockAfter, lockMs],
    );
    return rows[0] ?? { locked: false };
  },

  async clearFailedLogins(db: Queryable, userId: string): Promise<void> {
    await db.query(
      'update auth.user_profile set failed_logins = 0, locked_until = null where id = $1 and (failed_logins <> 0 or locked_until is not null)',
      [userId],
    );
  },

  async insertOneTimeSecret(
    db: Queryable,
    row: { hash: string; purpose: OneTimePurpose; userId: string; companyId: string; ttlMs: number },
  ): Promise<void> {
    await db.query(
      `insert into auth.one_time_secret (secret_hash, purpose, user_id, company_id, expires_at)
       values ($1, $2, $3, $4, now() + ($5::int * interval '1 millisecond'))`,
      [row.hash, row.purpose, row.userId, row.companyId, row.ttlMs],
    );
  },

  /** A live (unused, unexpired) secret of that purpose, without using it up. */
  async liveOneTimeSecret(db: Queryable, hash: string, purpose: OneTimePurpose): Promise<OneTimeSecretRow | undefined> {
    const { rows } = await db.query<OneTimeSecretRow>(
      `select purpose, user_id, company_id, attempts from auth.one_time_secret
        where secret_hash = $1 and purpose = $2 and used_at is null and expires_at > now()`,
      [hash, purpose],
    );
    return rows[0];
  },

  /** Uses the secret up; only one caller ever gets it back, however many race. */
  async consumeOneTimeSecret(
    db: Queryable,
    hash: string,
    purpose: OneTimePurpose,
  ): Promise<OneTimeSecretRow | undefined> {
    const { rows } = await db.query<OneTimeSecretRow>(
      `update auth.one_time_secret set used_at = now()
        where secret_hash = $1 and purpose = $2 and used_at is null and expires_at > now()
      returning purpose, user_id, company_id, attempts`,
      [hash, purpose],
    );
    return rows[0];
  },

  /** Counts a wrong code; the challenge is used up at `maxAttempts`. */
  async failChallenge(db: Queryable, hash: string, maxAttempts: number): Promise<void> {
    await db.query(
      `update auth.one_time_secret set attempts = attempts + 1, used_at = case when attempts + 1 >= $2 then now() else used_at end
        where secret_hash = $1 and used_at is null`,
      [hash, maxAttempts],
    );
  },

  /** Earlier links of that purpose stop working when a new one is sent or the password changes. */
  async retireOneTimeSecrets(db: Queryable, userId: string, purposes: OneTimePurpose[]): Promise<void> {
    await db.query(
      'update auth.one_time_secret set used_at = now() where user_id = $1 and purpose = any($2) and used_at is null',
      [userId, purposes],
    );
  },

  async deleteExpiredSecrets(db: Queryable): Promise<void> {
    await db.query(`delete from auth.one_time_secret where expires_at < now() - interval '1 day'`);
    await db.query('delete from auth.revoked_token where expires_at < now()');
    await db.query(`delete from auth.saml_request where created_at < now() - interval '1 day'`);
  },

  /** Accepts a TOTP time step only if it is later than every step accepted before (no replay, even concurrently). */
  async advanceTimeStep(db: Queryable, userId: string, timeStep: number): Promise<boolean> {
    const { rows } = await db.query(
      `update auth.user_profile set mfa_last_time_step = $2
        where id = $1 and (mfa_last_time_step is null or mfa_last_time_step < $2) returning id`,
      [userId, timeStep],
    );
    return rows.length === 1;
  },

  async setPendingMfaSecret(db: Queryable, userId: string, wrappedSecret: string): Promise<void> {
    await db.query('update auth.user_profile set mfa_pending_secret = $2, updated_at = now() where id = $1', [
      userId,
      wrappedSecret,
    ]);
  },

  /** The pending factor replaces any earlier one: older authenticator entries stop working. */
  async enablePendingMfa(db: Queryable, userId: string, factorId: string, timeStep: number): Promise<boolean> {
    const { rows } = await db.query(
      `update auth.user_profile set mfa_secret = mfa_pending_secret, mfa_pending_secret = null, mfa_factor_id = $2,
              mfa_last_time_step = $3, updated_at = now()
        where id = $1 and mfa_pending_secret is not null returning id`,
      [userId, factorId, timeStep],
    );
    return rows.length === 1;
  },

  async updateFullName(db: Queryable, companyId: string, userId: string, fullName: string): Promise<void> {
    await db.query(
      'update auth.user_profile set full_name = $3, updated_at = now() where company_id = $1 and id = $2',
      [companyId, userId, fullName],
    );
  },

  /**
   * A new password ends every session issued before `sessionsValidAfter` and lifts a lockout. The instant
   * comes from the clock that stamps tokens' `iat`, not the database's, so skew between them cannot end
   * the session issued right after.
   */
  async setPassword(
    db: Queryable,
    companyId: string,
    userId: string,
    passwordHash: string,
    sessionsValidAfter: Date,
  ): Promise<void> {
    await db.query(
      `update auth.user_profile set password_hash = $3, failed_logins = 0, locked_until = null, sessions_valid_after = $4, updated_at = now()
        where company_id = $1 and id = $2`,
      [companyId, userId, passwordHash, sessionsValidAfter],
    );
  },

  async revokeToken(db: Queryable, jti: string, userId: string, expiresAt: Date): Promise<boolean> {
    const { rows } = await db.query(
      'insert into auth.revoked_token (jti, user_id, expires_at) values ($1, $2, $3) on conflict (jti) do nothing returning jti',
      [jti, userId, expiresAt],
    );
    return rows.length === 1;
  },

  async deleteUser(db: Queryable, companyId: string, userId: string): Promise<{ email: string } | undefined> {
    const { rows } = await db.query<{ email: string }>(
      'delete from auth.user_profile where company_id = $1 and id = $2 returning email',
      [companyId, userId],
    );
    return rows[0];
  },

  async emailTaken(db: Queryable, email: string): Promise<boolean> {
    const { rows } = await db.query('select 1 from auth.user_profile where lower(email) = lower($1)', [email]);
    return rows.length > 0;
  },

  async companyUsers(db: Queryable, companyId: string) {
    const { rows } = await db.query<{
      uuid: string;
      email: string;
      full_name: string;
      roles: Role[];
      mfa_auth_factor_id: string | null;
    }>(
      'select id as uuid, email, full_name, roles, mfa_factor_id as mfa_auth_factor_id from auth.user_profile where company_id = $1 order by full_name, email',
      [companyId],
    );
    return rows;
  },

  async ownCompany(db: Queryable, companyId: string) {
    const { rows } = await db.query<{
      id: string;
      name: string;
      country: string;
      url_identifier: string;
      public_key: string;
      logo: string | null;
      title: string | null;
      description: string | null;
      mfa_required: boolean;
      resolution_deadline_days: number;
      notifications: Record<string, boolean>;
      sso_enabled: boolean;
    }>(
      `select c.id, c.name, c.country, c.url_identifier, c.public_key, c.logo, c.title, c.description, c.mfa_required,
              c.resolution_deadline_days, c.notifications, coalesce(s.enabled, false) as sso_enabled
         from auth.company c left join auth.sso_settings s on s.company_id = c.id
        where c.id = $1`,
      [companyId],
    );
    return rows[0];
  },

  async allCategories(db: Queryable, companyId: string) {
    const { rows } = await db.query<{ uuid: string; name: string; parent_uuid: string | null; is_active: boolean }>(
      'select id as uuid, name, parent_id as parent_uuid, is_active from auth.category where company_id = $1 order by parent_id nulls first, position, name',
      [companyId],
    );
    return rows;
  },

  async allLocations(db: Queryable, companyId: string) {
    const { rows } = await db.query<{ uuid: string; name: string; is_active: boolean }>(
      'select id as uuid, name, is_active from auth.location where company_id = $1 order by position, name',
      [companyId],
    );
    return rows;
  },

  async companyKeys(db: Queryable, companyId: string) {
    const { rows } = await db.query<{ aes_encrypted_private_key: string; wrapped_passphrase: string }>(
      'select aes_encrypted_private_key, wrapped_passphrase from auth.company where id = $1',
      [companyId],
    );
    return rows[0];
  },
};
