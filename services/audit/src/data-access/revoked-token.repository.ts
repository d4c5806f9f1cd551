import type { Queryable } from '@whistle/service-kit';

/** Logged-out tokens (`token.revoked`), refused by the audit endpoints until they would have expired. */
export const revokedTokenRepository = {
  async insert(db: Queryable, jti: string, expiresAt: string): Promise<void> {
    await db.query('insert into audit.revoked_token (jti, expires_at) values ($1, $2) on conflict do nothing', [
      jti,
      expiresAt,
    ]);
  },

  /** Whether the token is revoked, or its user was removed after it was issued. */
  async isRevoked(db: Queryable, token: { jti: string; userId: string; issuedAt: Date }): Promise<boolean> {
    const { rows } = await db.query(
      `select 1 from audit.revoked_token where jti = $1
       union all
       select 1 from audit.staff_member where user_id = $2 and removed_at >= $3`,
      [token.jti, token.userId, token.issuedAt],
    );
    return rows.length > 0;
  },

  async removeExpired(db: Queryable): Promise<void> {
    await db.query('delete from audit.revoked_token where expires_at < now()');
  },
};
