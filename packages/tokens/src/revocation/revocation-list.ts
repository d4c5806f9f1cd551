import { assertSchemaName, type EventHandlersOf, type MigrationStream, type Queryable } from '@whistle/service-kit';

/**
 * The events that refuse staff tokens, in the versions the list reads: a logout (one token), and the end of every
 * session a user had up to a moment (removal, password change or reset, role change).
 */
export type TokenRevocationEvent = 'token.revoked@1' | 'user.deleted@1' | 'user.sessions_revoked@1';

/**
 * Staff token lifetimes are minutes (auth's ACCESS_TOKEN_LIFETIME_SECONDS); a user's revocation is kept a day,
 * well past the life of any token it refuses.
 */
const USER_REVOCATION_KEPT = '1 day';

/** A token's identity as the verifiers read it (StaffPrincipal fits; a file token has no jti). */
export interface RevocableToken {
  tokenId?: string;
  userId: string;
  /** `iat`, in whole seconds. */
  issuedAt: Date;
}

/**
 * The revocation list of one service, in its own schema: every replica and a restarted one refuse the same
 * tokens, as soon as the event is consumed. Kept in each service that verifies tokens (no service reads another's
 * tables); fed by its `handlers`, written directly by auth (which revokes).
 */
export interface RevocationList {
  /** The tables, in the service's schema: the package's own migration stream (ids `000_token_revocation…`). */
  readonly migrations: MigrationStream;
  /**
   * The handlers of the revoking events, to spread into the service's `eventHandlers` (a service that also reads
   * one of them for itself calls the list's handler from its own).
   */
  readonly handlers: EventHandlersOf<TokenRevocationEvent, Queryable>;
  /** Refuses one token until it would have expired anyway; false when it was refused already. */
  revokeToken(db: Queryable, tokenId: string, expiresAt: Date | string): Promise<boolean>;
  /**
   * Refuses the user's tokens issued before `notBefore`, compared in whole seconds as `iat` is: a token issued in
   * the same second is kept (the one auth hands back after a password change is).
   */
  revokeUserSessions(db: Queryable, userId: string, notBefore: Date | string): Promise<void>;
  isRevoked(db: Queryable, token: RevocableToken): Promise<boolean>;
  /** Forgets what no longer refuses anything (run periodically). */
  removeExpired(db: Queryable): Promise<void>;
}

/** The next whole second after `at`: a token issued in the second of a removal is refused too. */
function nextSecond(at: string): Date {
  return new Date(Math.floor(new Date(at).getTime() / 1000) * 1000 + 1000);
}

export function revocationListFor(schema: string): RevocationList {
  assertSchemaName(schema);
  const list: RevocationList = {
    migrations: {
      name: 'token revocation',
      migrations: [
        {
          id: '000_token_revocation',
          sql: `
          -- Logged-out staff tokens, until they would have expired anyway.
          create table ${schema}.token_revocation (
            jti text primary key,
            expires_at timestamptz not null
          );
          create index token_revocation_expires_idx on ${schema}.token_revocation (expires_at);
          -- Users whose tokens issued before a moment are refused (removal, new password, new roles).
          create table ${schema}.user_session_revocation (
            user_id text primary key,
            not_before timestamptz not null,
            forget_after timestamptz not null
          );
          create index user_session_revocation_forget_idx on ${schema}.user_session_revocation (forget_after);
        `,
        },
      ],
    },
    handlers: {
      'token.revoked@1': async (tx, { payload }) => void (await list.revokeToken(tx, payload.jti, payload.expires_at)),
      'user.deleted@1': (tx, { payload }) =>
        list.revokeUserSessions(tx, payload.user_id, nextSecond(payload.deleted_at)),
      'user.sessions_revoked@1': (tx, { payload }) => list.revokeUserSessions(tx, payload.user_id, payload.not_before),
    },

    async revokeToken(db, tokenId, expiresAt) {
      const { rows } = await db.query(
        `insert into ${schema}.token_revocation (jti, expires_at) values ($1, $2) on conflict (jti) do nothing returning jti`,
        [tokenId, expiresAt],
      );
      return rows.length === 1;
    },

    async revokeUserSessions(db, userId, notBefore) {
      await db.query(
        `insert into ${schema}.user_session_revocation (user_id, not_before, forget_after)
         values ($1, $2, $2::timestamptz + interval '${USER_REVOCATION_KEPT}')
         on conflict (user_id) do update
           set not_before = greatest(${schema}.user_session_revocation.not_before, excluded.not_before),
               forget_after = greatest(${schema}.user_session_revocation.forget_after, excluded.forget_after)`,
        [userId, notBefore],
      );
    },

    async isRevoked(db, token) {
      const { rows } = await db.query(
        `select 1 from ${schema}.token_revocation where jti = $1
         union all
         select 1 from ${schema}.user_session_revocation
          where user_id = $2 and $3::timestamptz < date_trunc('second', not_before)`,
        [token.tokenId ?? null, token.userId, token.issuedAt],
      );
      return rows.length > 0;
    },

    async removeExpired(db) {
      await db.query(`delete from ${schema}.token_revocation where expires_at < now()`);
      await db.query(`delete from ${schema}.user_session_revocation where forget_after < now()`);
    },
  };
  return list;
}
