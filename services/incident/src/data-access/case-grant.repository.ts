import type { Queryable } from '@whistle/service-kit';

/** A person's current public key, as auth announced it (user.keys_created). */
export interface StaffKeyRow {
  user_id: string;
  key_id: string;
  public_key: string;
  fingerprint: string;
}

/** A person's wrapping of one case's passphrase (migration 023). */
export interface CaseGrantRow {
  user_id: string;
  key_id: string;
  fingerprint: string;
  wrapped_passphrase: string;
}

/** Staff members' public keys, and the per-case grants wrapped to them (docs/security.md, "Per-case grants"). */
export const caseGrantRepository = {
  /** A person's new keys: what was wrapped to their previous ones can no longer be opened, so it goes. */
  async recordKey(
    db: Queryable,
    companyId: string,
    key: { userId: string; keyId: string; publicKey: string; fingerprint: string },
  ): Promise<void> {
    await db.query(
      `insert into incident.staff_key (user_id, company_id, key_id, public_key, fingerprint) values ($1, $2, $3, $4, $5)
       on conflict (user_id) do update set key_id = excluded.key_id, public_key = excluded.public_key,
         fingerprint = excluded.fingerprint, created_at = now()
        where incident.staff_key.company_id = excluded.company_id`,
      [key.userId, companyId, key.keyId, key.publicKey, key.fingerprint],
    );
    await db.query('delete from incident.case_grant where company_id = $1 and user_id = $2 and key_id <> $3', [
      companyId,
      key.userId,
      key.keyId,
    ]);
  },

  /** The current keys of the company's people among `userIds`. */
  async keysOf(db: Queryable, companyId: string, userIds: readonly string[]): Promise<Map<string, StaffKeyRow>> {
    if (userIds.length === 0) return new Map();
    const { rows } = await db.query<StaffKeyRow>(
      `select user_id, key_id, public_key, fingerprint from incident.staff_key
        where company_id = $1 and user_id = any($2::uuid[])`,
      [companyId, userIds],
    );
    return new Map(rows.map((row) => [row.user_id, row]));
  },

  /** The company's keys among `keyIds` (opaque ids, as the public company view lists them). */
  async keysById(db: Queryable, companyId: string, keyIds: readonly string[]): Promise<Map<string, StaffKeyRow>> {
    if (keyIds.length === 0) return new Map();
    const { rows } = await db.query<StaffKeyRow>(
      `select user_id, key_id, public_key, fingerprint from incident.staff_key
        where company_id = $1 and key_id = any($2::uuid[])`,
      [companyId, keyIds],
    );
    return new Map(rows.map((row) => [row.key_id, row]));
  },

  /**
   * For a report a staff member records (staffRecorder), in one round trip: the recorder's own current key, and the
   * keys among `keyIds`, each saying whether it is the current key of a current default assignee of `categoryIds`
   * (a removed member is none).
   */
  async recordingKeys(
    db: Queryable,
    companyId: string,
    {
      recorderId,
      categoryIds,
      keyIds,
    }: { recorderId: string; categoryIds: readonly string[]; keyIds: readonly string[] },
  ) {
    return db.query<StaffKeyRow & { default_assignee: boolean }>(
      `select k.user_id, k.key_id, k.public_key, k.fingerprint,
              exists (select 1 from incident.category c
                        join incident.staff_member s on s.company_id = c.company_id and s.user_id = k.user_id
                       where c.company_id = $1 and c.id = any($3::uuid[]) and k.user_id = any(c.assignee_ids)
                         and s.removed_at is null) as default_assignee
         from incident.staff_key k
        where k.company_id = $1 and (k.user_id = $2 or k.key_id = any($4::uuid[]))`,
      [companyId, recorderId, categoryIds, keyIds],
    );
  },

  /** Stores (or replaces) grants of one case. */
  async upsert(
    db: Queryable,
    companyId: string,
    incidentId: string,
    grantedBy: string | null,
    grants: readonly CaseGrantRow[],
  ): Promise<void> {
    if (grants.length === 0) return;
    await db.query(
      `insert into incident.case_grant (incident_id, user_id, company_id, key_id, fingerprint, wrapped_passphrase, granted_by)
       select $2, g.user_id, $1, g.key_id, g.fingerprint, g.wrapped_passphrase, $3
         from unnest($4::uuid[], $5::uuid[], $6::text[], $7::text[]) as g(user_id, key_id, fingerprint, wrapped_passphrase)
       on conflict (incident_id, user_id) do update set key_id = excluded.key_id, fingerprint = excluded.fingerprint,
         wrapped_passphrase = excluded.wrapped_passphrase, granted_by = excluded.granted_by, granted_at = now()`,
      [
        companyId,
        incidentId,
        grantedBy,
        grants.map((grant) => grant.user_id),
        grants.map((grant) => grant.key_id),
        grants.map((grant) => grant.fingerprint),
        grants.map((grant) => grant.wrapped_passphrase),
      ],
    );
  },

  /** Deletes the grants of `userIds` on one case (unassigned, excluded). Returns whose grants were deleted. */
  async remove(db: Queryable, companyId: string, incidentId: string, userIds: readonly string[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    const { rows } = await db.query<{ user_id: string }>(
      `delete from incident.case_grant where company_id = $1 and incident_id = $2 and user_id = any($3::uuid[])
       returning user_id`,
      [companyId, incidentId, userIds],
    );
    return rows.map((row) => row.user_id);
  },

  /** Every grant a person holds goes (removed from the company). */
  async removeAllOf(db: Queryable, companyId: string, userId: string): Promise<void> {
    await db.query('delete from incident.case_grant where company_id = $1 and user_id = $2', [companyId, userId]);
  },

  /** The viewer's own grants among `incidentIds`, by incident: never anyone else's. */
  async ownGrants(
    db: Queryable,
    companyId: string,
    userId: string,
    incidentIds: readonly string[],
  ): Promise<Map<string, CaseGrantRow>> {
    if (incidentIds.length === 0) return new Map();
    const { rows } = await db.query<CaseGrantRow & { incident_id: string }>(
      `select incident_id, user_id, key_id, fingerprint, wrapped_passphrase from incident.case_grant
        where company_id = $1 and user_id = $2 and incident_id = any($3::uuid[])`,
      [companyId, userId, incidentIds],
    );
    return new Map(rows.map(({ incident_id, ...grant }) => [incident_id, grant]));
  },

  /** Who holds a grant of the case (ids only, for checks and tests). */
  async holders(db: Queryable, companyId: string, incidentId: string): Promise<string[]> {
    const { rows } = await db.query<{ user_id: string }>(
      'select user_id from incident.case_grant where company_id = $1 and incident_id = $2 order by user_id',
      [companyId, incidentId],
    );
    return rows.map((row) => row.user_id);
  },
};
