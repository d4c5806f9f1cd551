import type { Queryable } from '@whistle/service-kit';

/** Ended sessions: revoked token ids (until they would have expired anyway) and what else ends a session. */
export const sessionRepository = {
  async revokeToken(db: Queryable, jti: string, userId: string, expiresAt: Date): Promise<boolean> {
    const { rows } = await db.query(
      'insert into auth.revoked_token (jti, user_id, expires_at) values ($1, $2, $3) on conflict (jti) do nothing returning jti',
      [jti, userId, expiresAt],
    );
    return rows.length === 1;
  },

  /**
   * A revoked jti, a deleted user, or a token older than the user's last password change (compared in
   * whole seconds, as `iat` is).
   */
  async isRevoked(
    db: Queryable,
    token: { tokenId: string; userId: string; companyId: string; issuedAt: Date },
  ): Promise<boolean> {
    const { rows } = await db.query<{ revoked: boolean }>(
      `select exists (select 1 from auth.revoked_token where jti = $1)
           or not exists (select 1 from auth.user_profile where id = $2 and company_id = $3
                            and (sessions_valid_after is null or date_trunc('second', sessions_valid_after) <= $4))
           as revoked`,
      [token.tokenId, token.userId, token.companyId, token.issuedAt],
    );
    return rows[0].revoked;
  },

  async deleteExpired(db: Queryable): Promise<void> {
    await db.query('delete from auth.revoked_token where expires_at < now()');
  },
};
