import type { RewrapCase } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';

/**
 * A case still under an older key: its version is known to be older, or not known at all. A case with no company
 * wrapping (its discloser excluded an admin) has nothing to re-wrap: a rotation skips it.
 */
const UNDER_OLDER_KEY =
  '(i.company_encrypted_passphrase is not null and (i.company_key_version is null or i.company_key_version < $2))';

/**
 * The company wrappings of the incident passphrases during a company key rotation, and the company's key versions
 * (from auth's events). Only wrappings: nothing here opens a case.
 */
export const companyKeyRewrapRepository = {
  /**
   * With `lock`, the company row is held against reports being stored (they read it under a key-share lock) until
   * the transaction ends: a rotation's completion counts and retires the previous key with no report in between.
   */
  async versions(db: Queryable, companyId: string, { lock = false } = {}) {
    const { rows } = await db.query<{ key_version: number; previous_key_version: number | null }>(
      `select key_version, previous_key_version from incident.company where id = $1${lock ? ' for update' : ''}`,
      [companyId],
    );
    return rows[0];
  },

  /** A rotation started: newer versions only, so a replayed or late event moves nothing back. */
  async recordRotationStarted(db: Queryable, companyId: string, version: number, previous: number): Promise<void> {
    await db.query(
      `update incident.company set key_version = $2, previous_key_version = $3
        where id = $1 and key_version < $2`,
      [companyId, version, previous],
    );
  },

  async recordRotationCompleted(db: Queryable, companyId: string, version: number): Promise<void> {
    await db.query('update incident.company set previous_key_version = null where id = $1 and key_version = $2', [
      companyId,
      version,
    ]);
  },

  /** The company's cases under an older key than `version`, in id order after `after`, except the caller's exclusions. */
  async page(
    db: Queryable,
    scope: { companyId: string; userId: string },
    page: { version: number; after: string | undefined; limit: number },
  ): Promise<RewrapCase[]> {
    const { rows } = await db.query<{
      uuid: string;
      public_key: string;
      aes_encrypted_private_key: string;
      aes_salt: string;
      aes_iv: string;
      company_encrypted_passphrase: string;
      company_key_version: number | null;
    }>(
      `select i.id as uuid, i.public_key, i.aes_encrypted_private_key, i.aes_salt, i.aes_iv,
              i.company_encrypted_passphrase, i.company_key_version
         from incident.incident i
        where i.company_id = $1 and ${UNDER_OLDER_KEY}
          and ($3::uuid is null or i.id > $3::uuid)
          and i.id <> all(array(select x.incident_id from incident.exclusion x
                                 where x.company_id = $1 and x.user_id = $4))
        order by i.id
        limit $5`,
      [scope.companyId, page.version, page.after ?? null, scope.userId, page.limit],
    );
    return rows.map(({ public_key, aes_encrypted_private_key, ...row }) => ({
      ...row,
      credential: { public_key, aes_encrypted_private_key },
    }));
  },

  /** How many of the company's cases are still under an older key (the caller's exclusions among them). */
  async remaining(db: Queryable, companyId: string, version: number): Promise<number> {
    const { rows } = await db.query<{ remaining: number }>(
      `select count(*)::int as remaining from incident.incident i where i.company_id = $1 and ${UNDER_OLDER_KEY}`,
      [companyId, version],
    );
    return rows[0]?.remaining ?? 0;
  },

  /** Which of `ids` are the company's cases that the caller is not excluded from. */
  async reachable(db: Queryable, scope: { companyId: string; userId: string }, ids: string[]): Promise<Set<string>> {
    const { rows } = await db.query<{ id: string }>(
      `select i.id from incident.incident i
        where i.company_id = $1 and i.id = any($2::uuid[])
          and not exists (select 1 from incident.exclusion x
                           where x.company_id = $1 and x.incident_id = i.id and x.user_id = $3)`,
      [scope.companyId, ids, scope.userId],
    );
    return new Set(rows.map((row) => row.id));
  },

  /** Stores a re-wrapped passphrase unless the case is already under `version` (a batch sent again): stored or not. */
  async store(
    db: Queryable,
    companyId: string,
    version: number,
    wrapping: { uuid: string; company_encrypted_passphrase: string },
  ): Promise<boolean> {
    const { rowCount } = await db.query(
      `update incident.incident i set company_encrypted_passphrase = $3, company_key_version = $2
        where i.company_id = $1 and i.id = $4 and ${UNDER_OLDER_KEY}`,
      [companyId, version, wrapping.company_encrypted_passphrase, wrapping.uuid],
    );
    return rowCount === 1;
  },
};
