import type { Queryable } from '@whistle/service-kit';

export interface CompanyKeyRow {
  version: number;
  public_key: string;
  recovery_sealed_private_key: string | null;
  state: 'current' | 'previous';
  created_at: Date;
  created_by: string | null;
}

export interface GrantRow {
  key_version: number;
  user_id: string;
  key_id: string;
  wrapped_private_key: string;
}

export type GrantReason = 'onboarding' | 'migration' | 'approval' | 'recovery' | 'rotation';

/** The company's key pairs, who holds them, and who asks to. Only wrappings: nothing here opens a key. */
export const companyKeyRepository = {
  /** Every version of the company key, the current one first. */
  async keys(db: Queryable, companyId: string): Promise<CompanyKeyRow[]> {
    const { rows } = await db.query<CompanyKeyRow>(
      `select version, public_key, recovery_sealed_private_key, state, created_at, created_by from auth.company_key
        where company_id = $1 order by state = 'current' desc, version desc`,
      [companyId],
    );
    return rows;
  },

  /** Locks the company's key rows: a migration, a recovery kit, a grant and a rotation do not interleave. */
  async lockKeys(db: Queryable, companyId: string): Promise<CompanyKeyRow[]> {
    const { rows } = await db.query<CompanyKeyRow>(
      `select version, public_key, recovery_sealed_private_key, state, created_at, created_by from auth.company_key
        where company_id = $1 order by state = 'current' desc, version desc for update`,
      [companyId],
    );
    return rows;
  },

  async insertKey(
    db: Queryable,
    companyId: string,
    key: { version: number; publicKey: string; recoverySealed: string },
  ): Promise<void> {
    await db.query(
      `insert into auth.company_key (company_id, version, public_key, recovery_sealed_private_key, state)
       values ($1, $2, $3, $4, 'current')`,
      [companyId, key.version, key.publicKey, key.recoverySealed],
    );
  },

  /**
   * A rotation starts (auth.start_company_key_rotation): the key `fromVersion` becomes the previous one and the new
   * pair the current one. Undefined when `fromVersion` is not current or a rotation already runs.
   */
  async startRotation(
    db: Queryable,
    companyId: string,
    rotation: { fromVersion: number; publicKey: string; recoverySealed: string; startedBy: string },
  ): Promise<number | undefined> {
    const { rows } = await db.query<{ version: number | null }>(
      'select auth.start_company_key_rotation($1, $2, $3, $4, $5) as version',
      [companyId, rotation.fromVersion, rotation.publicKey, rotation.recoverySealed, rotation.startedBy],
    );
    return rows[0]?.version ?? undefined;
  },

  /**
   * A rotation completes: the previous key goes, and with it (cascade) every grant of it and its recovery kit copy.
   * Answers who held it (none when it was already gone).
   */
  async deletePrevious(db: Queryable, companyId: string, version: number): Promise<string[]> {
    const { rows } = await db.query<{ user_id: string }>(
      `select user_id from auth.company_key_grant where company_id = $1 and key_version = $2 order by user_id`,
      [companyId, version],
    );
    const { rowCount } = await db.query(
      `delete from auth.company_key where company_id = $1 and version = $2 and state = 'previous'`,
      [companyId, version],
    );
    return rowCount === 1 ? rows.map((row) => row.user_id) : [];
  },

  async setRecovery(db: Queryable, companyId: string, version: number, sealed: string): Promise<boolean> {
    const { rowCount } = await db.query(
      `update auth.company_key set recovery_sealed_private_key = $3
        where company_id = $1 and version = $2 and state = 'current'`,
      [companyId, version, sealed],
    );
    return rowCount === 1;
  },

  async grantsOf(db: Queryable, companyId: string, userId: string): Promise<GrantRow[]> {
    const { rows } = await db.query<GrantRow>(
      `select key_version, user_id, key_id, wrapped_private_key from auth.company_key_grant
        where company_id = $1 and user_id = $2`,
      [companyId, userId],
    );
    return rows;
  },

  /** Who holds the current key (user ids). */
  async holders(db: Queryable, companyId: string, version: number): Promise<Set<string>> {
    const { rows } = await db.query<{ user_id: string }>(
      'select user_id from auth.company_key_grant where company_id = $1 and key_version = $2',
      [companyId, version],
    );
    return new Set(rows.map((row) => row.user_id));
  },

  /** Stores a grant, replacing the person's earlier wrapping of that version. */
  async grant(
    db: Queryable,
    companyId: string,
    grant: GrantRow & { grantedBy: string | null; reason: GrantReason },
  ): Promise<void> {
    await db.query(
      `insert into auth.company_key_grant
         (company_id, key_version, user_id, key_id, wrapped_private_key, granted_by, reason)
       values ($1, $2, $3, $4, $5, $6, $7)
       on conflict (company_id, key_version, user_id) do update
         set key_id = excluded.key_id, wrapped_private_key = excluded.wrapped_private_key,
             granted_by = excluded.granted_by, reason = excluded.reason, granted_at = now()`,
      [
        companyId,
        grant.key_version,
        grant.user_id,
        grant.key_id,
        grant.wrapped_private_key,
        grant.grantedBy,
        grant.reason,
      ],
    );
  },

  /** Deletes every wrapping a person holds; answers whether there was any. */
  async revokeAll(db: Queryable, companyId: string, userId: string): Promise<boolean> {
    const { rowCount } = await db.query('delete from auth.company_key_grant where company_id = $1 and user_id = $2', [
      companyId,
      userId,
    ]);
    return (rowCount ?? 0) > 0;
  },

  async request(db: Queryable, companyId: string, userId: string) {
    const { rows } = await db.query<{ id: string; key_id: string; created_at: Date; expires_at: Date }>(
      `select id, key_id, created_at, expires_at from auth.key_access_request
        where company_id = $1 and user_id = $2 and expires_at > now()`,
      [companyId, userId],
    );
    return rows[0];
  },

  async requests(db: Queryable, companyId: string) {
    const { rows } = await db.query<{
      id: string;
      user_id: string;
      key_id: string;
      created_at: Date;
      expires_at: Date;
    }>(
      `select id, user_id, key_id, created_at, expires_at from auth.key_access_request
        where company_id = $1 and expires_at > now()`,
      [companyId],
    );
    return rows;
  },

  /** One live request per person: a new one replaces an expired or older one. */
  async putRequest(
    db: Queryable,
    companyId: string,
    request: { id: string; userId: string; keyId: string; expiresAt: Date },
  ): Promise<void> {
    await db.query(
      `insert into auth.key_access_request (id, company_id, user_id, key_id, expires_at) values ($1, $2, $3, $4, $5)
       on conflict (user_id) do update
         set id = excluded.id, key_id = excluded.key_id, created_at = now(), expires_at = excluded.expires_at`,
      [request.id, companyId, request.userId, request.keyId, request.expiresAt],
    );
  },

  async deleteRequest(db: Queryable, companyId: string, requestId: string) {
    const { rows } = await db.query<{ user_id: string; expires_at: Date }>(
      'delete from auth.key_access_request where company_id = $1 and id = $2 returning user_id, expires_at',
      [companyId, requestId],
    );
    return rows[0];
  },

  async deleteRequestsOf(db: Queryable, companyId: string, userId: string): Promise<void> {
    await db.query('delete from auth.key_access_request where company_id = $1 and user_id = $2', [companyId, userId]);
  },

  /** The legacy way of the company key: its private key under a passphrase wrapped with the KEK (null once migrated). */
  async legacy(db: Queryable, companyId: string) {
    const { rows } = await db.query<{ aes_encrypted_private_key: string; wrapped_passphrase: string }>(
      `select aes_encrypted_private_key, wrapped_passphrase from auth.company
        where id = $1 and wrapped_passphrase is not null`,
      [companyId],
    );
    return rows[0];
  },

  /** Ends the legacy way for good: the KEK-wrapped passphrase and the private key it sealed are deleted. */
  async dropLegacy(db: Queryable, companyId: string): Promise<boolean> {
    const { rows } = await db.query<{ ended: boolean | null }>('select auth.end_legacy_company_key($1) as ended', [
      companyId,
    ]);
    return rows[0]?.ended === true;
  },
};
