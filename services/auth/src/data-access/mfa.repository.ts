import type { Queryable } from '@whistle/service-kit';

/** A user's TOTP factor: the enabled secret, a pending one being set up, the last accepted time step (secrets wrapped by the KEK). */
export const mfaRepository = {
  /** Accepts a TOTP time step only if it is later than every step accepted before (no replay, even concurrently). */
  async advanceTimeStep(db: Queryable, userId: string, timeStep: number): Promise<boolean> {
    const { rows } = await db.query(
      `update auth.user_profile set mfa_last_time_step = $2
        where id = $1 and (mfa_last_time_step is null or mfa_last_time_step < $2) returning id`,
      [userId, timeStep],
    );
    return rows.length === 1;
  },

  async setPendingSecret(db: Queryable, userId: string, wrappedSecret: string): Promise<void> {
    await db.query('update auth.user_profile set mfa_pending_secret = $2, updated_at = now() where id = $1', [
      userId,
      wrappedSecret,
    ]);
  },

  /** The pending factor replaces any earlier one: older authenticator entries stop working. */
  async enablePending(db: Queryable, userId: string, factorId: string, timeStep: number): Promise<boolean> {
    const { rows } = await db.query(
      `update auth.user_profile set mfa_secret = mfa_pending_secret, mfa_pending_secret = null, mfa_factor_id = $2,
              mfa_last_time_step = $3, updated_at = now()
        where id = $1 and mfa_pending_secret is not null returning id`,
      [userId, factorId, timeStep],
    );
    return rows.length === 1;
  },
};
