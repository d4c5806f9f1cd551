import type { Queryable } from '@whistle/service-kit';

export interface PersonKeyRow {
  user_id: string;
  key_id: string;
  public_key: string;
  signing_public_key: string;
  fingerprint: string;
}

export interface UnlockMethodRow {
  id: string;
  method: 'password' | 'passkey' | 'passphrase';
  sealed_private_keys: string;
  credential_id: string | null;
  prf_salt: string | null;
  kdf: string | null;
  kdf_salt: string | null;
  label: string | null;
  created_at: Date;
}

export interface NewUnlockMethod {
  id: string;
  method: UnlockMethodRow['method'];
  sealedPrivateKeys: string;
  credentialId?: string | null;
  prfSalt?: string | null;
  kdf?: string | null;
  kdfSalt?: string | null;
  label?: string | null;
}

/** People's public keys and the sealed copies of their private keys (which only their owner receives). */
export const personKeyRepository = {
  async ofUser(db: Queryable, companyId: string, userId: string): Promise<PersonKeyRow | undefined> {
    const { rows } = await db.query<PersonKeyRow>(
      `select user_id, key_id, public_key, signing_public_key, fingerprint
         from auth.person_key where company_id = $1 and user_id = $2`,
      [companyId, userId],
    );
    return rows[0];
  },

  /** The member whose current key this is, with their roles; undefined for a key id that is nobody's current one. */
  async memberByKeyId(db: Queryable, companyId: string, keyId: string) {
    const { rows } = await db.query<PersonKeyRow & { roles: ('ADMIN' | 'REVIEWER' | 'HANDLER')[] }>(
      `select k.user_id, k.key_id, k.public_key, k.signing_public_key, k.fingerprint, u.roles
         from auth.person_key k join auth.user_profile u on u.id = k.user_id
        where k.company_id = $1 and k.key_id = $2`,
      [companyId, keyId],
    );
    return rows[0];
  },

  /** A person's keys, replacing any they had (a reset by e-mail): their sealed copies go with the old keys. */
  async replace(db: Queryable, companyId: string, key: PersonKeyRow): Promise<{ replaced: boolean }> {
    const { rowCount } = await db.query('delete from auth.person_key where company_id = $1 and user_id = $2', [
      companyId,
      key.user_id,
    ]);
    await db.query(
      `insert into auth.person_key (user_id, company_id, key_id, public_key, signing_public_key, fingerprint)
       values ($1, $2, $3, $4, $5, $6)`,
      [key.user_id, companyId, key.key_id, key.public_key, key.signing_public_key, key.fingerprint],
    );
    return { replaced: (rowCount ?? 0) > 0 };
  },

  async unlockMethods(db: Queryable, companyId: string, userId: string): Promise<UnlockMethodRow[]> {
    const { rows } = await db.query<UnlockMethodRow>(
      `select id, method, sealed_private_keys, credential_id, prf_salt, kdf, kdf_salt, label, created_at
         from auth.unlock_method where company_id = $1 and user_id = $2 order by created_at, id`,
      [companyId, userId],
    );
    return rows;
  },

  async addUnlockMethod(db: Queryable, companyId: string, userId: string, method: NewUnlockMethod): Promise<void> {
    await db.query(
      `insert into auth.unlock_method
         (id, user_id, company_id, method, sealed_private_keys, credential_id, prf_salt, kdf, kdf_salt, label)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        method.id,
        userId,
        companyId,
        method.method,
        method.sealedPrivateKeys,
        method.credentialId ?? null,
        method.prfSalt ?? null,
        method.kdf ?? null,
        method.kdfSalt ?? null,
        method.label ?? null,
      ],
    );
  },

  /** The password's copy, re-sealed under a new password's unlock key (a password change keeps the keys). */
  async resealPassword(db: Queryable, companyId: string, userId: string, sealed: string): Promise<boolean> {
    const { rowCount } = await db.query(
      `update auth.unlock_method set sealed_private_keys = $3
        where company_id = $1 and user_id = $2 and method = 'password'`,
      [companyId, userId, sealed],
    );
    return rowCount === 1;
  },

  async removeUnlockMethod(
    db: Queryable,
    companyId: string,
    userId: string,
    id: string,
  ): Promise<UnlockMethodRow['method'] | undefined> {
    const { rows } = await db.query<{ method: UnlockMethodRow['method'] }>(
      'delete from auth.unlock_method where company_id = $1 and user_id = $2 and id = $3 returning method',
      [companyId, userId, id],
    );
    return rows[0]?.method;
  },

  /** Every person of the company with their key (null before they made one), as the team sees them. */
  async team(db: Queryable, companyId: string) {
    const { rows } = await db.query<{
      user_id: string;
      full_name: string;
      roles: ('ADMIN' | 'REVIEWER' | 'HANDLER')[];
      key_id: string | null;
      public_key: string | null;
      signing_public_key: string | null;
      fingerprint: string | null;
    }>(
      `select u.id as user_id, u.full_name, u.roles, k.key_id, k.public_key, k.signing_public_key, k.fingerprint
         from auth.user_profile u left join auth.person_key k on k.user_id = u.id
        where u.company_id = $1 order by u.full_name, u.email`,
      [companyId],
    );
    return rows;
  },
};
