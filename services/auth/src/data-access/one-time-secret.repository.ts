import type { Queryable } from '@whistle/service-kit';

export type OneTimePurpose = 'mfa_challenge' | 'password_reset' | 'invitation' | 'sso_code';

export interface OneTimeSecretRow {
  purpose: OneTimePurpose;
  user_id: string;
  company_id: string;
  attempts: number;
}

/** MFA challenges, reset and invitation links, SSO codes: only their hash is stored, each used at most once. */
export const oneTimeSecretRepository = {
  async insert(
    db: Queryable,
    row: {
      hash: string;
      purpose: OneTimePurpose;
      userId: string;
      companyId: string;
      ttlMs: number;
      /** SSO codes: the hash of the nonce of the browser that started the sign-in (`consumeBound`). */
      browserBinding?: string | null;
    },
  ): Promise<void> {
    await db.query(
      `insert into auth.one_time_secret (secret_hash, purpose, user_id, company_id, expires_at, browser_binding)
       values ($1, $2, $3, $4, now() + ($5::int * interval '1 millisecond'), $6)`,
      [row.hash, row.purpose, row.userId, row.companyId, row.ttlMs, row.browserBinding ?? null],
    );
  },

  /** A live (unused, unexpired) secret of that purpose, without using it up. */
  async live(db: Queryable, hash: string, purpose: OneTimePurpose): Promise<OneTimeSecretRow | undefined> {
    const { rows } = await db.query<OneTimeSecretRow>(
      `select purpose, user_id, company_id, attempts from auth.one_time_secret
        where secret_hash = $1 and purpose = $2 and used_at is null and expires_at > now()`,
      [hash, purpose],
    );
    return rows[0];
  },

  /** Uses the secret up; only one caller ever gets it back, however many race. */
  async consume(db: Queryable, hash: string, purpose: OneTimePurpose): Promise<OneTimeSecretRow | undefined> {
    const { rows } = await db.query<OneTimeSecretRow>(
      `update auth.one_time_secret set used_at = now()
        where secret_hash = $1 and purpose = $2 and used_at is null and expires_at > now()
      returning purpose, user_id, company_id, attempts`,
      [hash, purpose],
    );
    return rows[0];
  },

  /**
   * Like `consume`, for a secret bound to a browser: only with that browser's binding. Another browser's attempt
   * leaves it live (the browser that started the sign-in still gets in).
   */
  async consumeBound(
    db: Queryable,
    hash: string,
    purpose: OneTimePurpose,
    browserBinding: string,
  ): Promise<OneTimeSecretRow | undefined> {
    const { rows } = await db.query<OneTimeSecretRow>(
      `update auth.one_time_secret set used_at = now()
        where secret_hash = $1 and purpose = $2 and browser_binding = $3 and used_at is null and expires_at > now()
      returning purpose, user_id, company_id, attempts`,
      [hash, purpose, browserBinding],
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
  async retire(db: Queryable, userId: string, purposes: OneTimePurpose[]): Promise<void> {
    await db.query(
      'update auth.one_time_secret set used_at = now() where user_id = $1 and purpose = any($2) and used_at is null',
      [userId, purposes],
    );
  },

  /** Expired a day ago: kept that long only so a late attempt still finds a used-up secret. */
  async deleteExpired(db: Queryable): Promise<void> {
    await db.query(`delete from auth.one_time_secret where expires_at < now() - interval '1 day'`);
  },
};
