import type { Queryable } from '@whistle/service-kit';

/** What ends a session besides a logout (the revocation list): the user's removal or last password or role change. */
export const sessionRepository = {
  /**
   * A deleted user, or a token older than the user's last password or role change (compared in whole seconds, as
   * `iat` is).
   */
  async userSessionEnded(
    db: Queryable,
    token: { userId: string; companyId: string; issuedAt: Date },
  ): Promise<boolean> {
    const { rows } = await db.query<{ ended: boolean }>(
      `select not exists (select 1 from auth.user_profile where id = $1 and company_id = $2
                            and (sessions_valid_after is null or date_trunc('second', sessions_valid_after) <= $3))
           as ended`,
      [token.userId, token.companyId, token.issuedAt],
    );
    return rows[0].ended;
  },
};
