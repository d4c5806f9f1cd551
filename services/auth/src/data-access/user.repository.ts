import type { KdfName, Role, StaffLanguage } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';

export interface UserRow {
  id: string;
  company_id: string;
  email: string;
  full_name: string;
  password_hash: string | null;
  /** The browser's key derivation of the password (null with a password_hash: a password from before). */
  kdf: KdfName | null;
  kdf_salt: string | null;
  roles: Role[];
  mfa_secret: string | null;
  mfa_factor_id: string | null;
  mfa_pending_secret: string | null;
  mfa_last_time_step: string | null;
  failed_logins: number;
  company_mfa_required: boolean;
  /** The language of the account's mails (its choice in the settings). */
  language: string;
}

/**
 * What today's pages derive a new salt with (`CURRENT_KDF` of @whistle/crypto): the kdf an unknown address's made-up
 * salt names, so that it answers as a new account's would. A stored password keeps the kdf its page said it used.
 */
export const NEW_PASSWORD_KDF: KdfName = 'argon2id-v2';

/** A password as stored: the argon2id hash of the authentication secret, the salt and kdf it was derived with. */
export interface StoredPassword {
  readonly hash: string;
  readonly kdfSalt: string;
  readonly kdf: KdfName;
}

const userColumns = `u.id, u.company_id, u.email, u.full_name, u.password_hash, u.kdf, u.kdf_salt, u.roles, u.mfa_secret, u.mfa_factor_id,
  u.mfa_pending_secret, u.mfa_last_time_step, u.failed_logins, c.mfa_required as company_mfa_required, u.language`;

/** Staff accounts and their sign-in state. Reads of a known user are scoped by company id as well. */
export const userRepository = {
  async byEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
    const { rows } = await db.query<UserRow>(
      `select ${userColumns} from auth.user_profile u join auth.company c on c.id = u.company_id where lower(u.email) = lower($1)`,
      [email],
    );
    return rows[0];
  },

  async byId(db: Queryable, companyId: string, userId: string): Promise<UserRow | undefined> {
    const { rows } = await db.query<UserRow>(
      `select ${userColumns} from auth.user_profile u join auth.company c on c.id = u.company_id where u.company_id = $1 and u.id = $2`,
      [companyId, userId],
    );
    return rows[0];
  },

  /** An inviting admin's own language and their company's default (a discloser language), for an invitee's. */
  async inviterLanguages(db: Queryable, companyId: string, userId: string) {
    const { rows } = await db.query<{ own: string; company_default: string }>(
      `select u.language as own, c.default_language as company_default
         from auth.user_profile u join auth.company c on c.id = u.company_id where u.company_id = $1 and u.id = $2`,
      [companyId, userId],
    );
    return rows[0];
  },

  async insert(
    db: Queryable,
    user: {
      id: string;
      companyId: string;
      email: string;
      fullName: string;
      /** None: invited. */
      password: StoredPassword | null;
      roles: string[];
      /** The language of the member's mails, from the start (the invitation's or the onboarding page's). */
      language: StaffLanguage;
    },
  ): Promise<void> {
    await db.query(
      `insert into auth.user_profile (id, company_id, email, full_name, password_hash, kdf, kdf_salt, roles, language)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        user.id,
        user.companyId,
        user.email,
        user.fullName,
        user.password?.hash ?? null,
        user.password?.kdf ?? null,
        user.password?.kdfSalt ?? null,
        user.roles,
        user.language,
      ],
    );
  },

  /** The company's team as the admin's team page shows it. */
  async ofCompany(db: Queryable, companyId: string) {
    const { rows } = await db.query<{
      uuid: string;
      email: string;
      full_name: string;
      roles: Role[];
      mfa_auth_factor_id: string | null;
      last_sign_in_at: Date | null;
      invitation_pending: boolean;
    }>(
      `select id as uuid, email, full_name, roles, mfa_factor_id as mfa_auth_factor_id, last_sign_in_at,
              password_hash is null as invitation_pending
         from auth.user_profile where company_id = $1 order by full_name, email`,
      [companyId],
    );
    return rows;
  },

  /** What user.updated announces of a member: the whole current state (notifications: only what was set). */
  async announced(db: Queryable, companyId: string, userId: string) {
    const { rows } = await db.query<{
      email: string;
      full_name: string;
      roles: Role[];
      language: StaffLanguage;
      notifications: Partial<Record<string, boolean>>;
    }>(
      'select email, full_name, roles, language, notifications from auth.user_profile where company_id = $1 and id = $2',
      [companyId, userId],
    );
    return rows[0];
  },

  async setMailPreferences(
    db: Queryable,
    companyId: string,
    userId: string,
    preferences: { language: string; notifications: Record<string, boolean> },
  ): Promise<void> {
    await db.query(
      'update auth.user_profile set language = $3, notifications = $4, updated_at = now() where company_id = $1 and id = $2',
      [companyId, userId, preferences.language, JSON.stringify(preferences.notifications)],
    );
  },

  async recordSignIn(db: Queryable, userId: string): Promise<void> {
    await db.query('update auth.user_profile set last_sign_in_at = now() where id = $1', [userId]);
  },

  /**
   * New roles for a member of the company; their earlier tokens stop being accepted here (they carry the old
   * roles). Answers false when the member is not the company's.
   */
  async setRoles(
    db: Queryable,
    companyId: string,
    userId: string,
    roles: readonly Role[],
    sessionsValidAfter: Date,
  ): Promise<boolean> {
    const { rowCount } = await db.query(
      `update auth.user_profile set roles = $3, sessions_valid_after = $4, updated_at = now()
        where company_id = $1 and id = $2`,
      [companyId, userId, roles, sessionsValidAfter],
    );
    return rowCount === 1;
  },

  /** How many members of the company hold `role`, locking their rows so two demotions cannot both pass. */
  async countWithRole(db: Queryable, companyId: string, role: Role): Promise<number> {
    const { rows } = await db.query<{ id: string }>(
      'select id from auth.user_profile where company_id = $1 and $2 = any(roles) for update',
      [companyId, role],
    );
    return rows.length;
  },

  /** One more wrong password in a row; answers how many now (one statement: concurrent guesses each count). */
  async recordFailedLogin(db: Queryable, userId: string): Promise<number> {
    const { rows } = await db.query<{ failed_logins: number }>(
      'update auth.user_profile set failed_logins = failed_logins + 1 where id = $1 returning failed_logins',
      [userId],
    );
    return rows[0]?.failed_logins ?? 0;
  },

  async clearFailedLogins(db: Queryable, userId: string): Promise<void> {
    await db.query('update auth.user_profile set failed_logins = 0 where id = $1 and failed_logins <> 0', [userId]);
  },

  async updateFullName(db: Queryable, companyId: string, userId: string, fullName: string): Promise<void> {
    await db.query(
      'update auth.user_profile set full_name = $3, updated_at = now() where company_id = $1 and id = $2',
      [companyId, userId, fullName],
    );
  },

  /**
   * A new password ends every session issued before `sessionsValidAfter` and clears the failure streak. The instant
   * comes from the clock that stamps tokens' `iat`, not the database's, so skew between them cannot end
   * the session issued right after.
   */
  async setPassword(
    db: Queryable,
    companyId: string,
    userId: string,
    password: StoredPassword,
    sessionsValidAfter: Date,
  ): Promise<void> {
    await db.query(
      `update auth.user_profile
          set password_hash = $3, kdf = $6, kdf_salt = $4, failed_logins = 0, sessions_valid_after = $5,
              updated_at = now()
        where company_id = $1 and id = $2`,
      [companyId, userId, password.hash, password.kdfSalt, sessionsValidAfter, password.kdf],
    );
  },

  /**
   * The last sign-in with a password from before: its hash becomes that of the authentication secret the browser
   * derived from it (nothing else changes, no session ends).
   */
  async upgradePassword(db: Queryable, userId: string, password: StoredPassword): Promise<boolean> {
    const { rowCount } = await db.query(
      `update auth.user_profile set password_hash = $2, kdf = $4, kdf_salt = $3, updated_at = now()
        where id = $1 and kdf is null`,
      [userId, password.hash, password.kdfSalt, password.kdf],
    );
    return rowCount === 1;
  },

  /**
   * The same password derived again with a newer kdf (its salt and hash replace the old ones). Only from `fromKdf`,
   * so a replay after the upgrade, or two upgrades racing, change nothing. No session ends: the password is the same.
   */
  async upgradePasswordKdf(
    db: Queryable,
    companyId: string,
    userId: string,
    upgrade: { fromKdf: KdfName; kdf: KdfName; hash: string; kdfSalt: string },
  ): Promise<boolean> {
    const { rowCount } = await db.query(
      `update auth.user_profile set password_hash = $4, kdf = $5, kdf_salt = $6, updated_at = now()
        where company_id = $1 and id = $2 and kdf = $3`,
      [companyId, userId, upgrade.fromKdf, upgrade.hash, upgrade.kdf, upgrade.kdfSalt],
    );
    return rowCount === 1;
  },

  async delete(db: Queryable, companyId: string, userId: string): Promise<{ email: string } | undefined> {
    const { rows } = await db.query<{ email: string }>(
      'delete from auth.user_profile where company_id = $1 and id = $2 returning email',
      [companyId, userId],
    );
    return rows[0];
  },
};
