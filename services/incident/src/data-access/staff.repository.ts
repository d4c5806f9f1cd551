import type { Queryable } from '@whistle/service-kit';

export interface StaffMemberRow {
  user_id: string;
  full_name: string;
  roles: string[];
}

/** Staff as auth announced them (`user.*` events), scoped by company. */
export const staffRepository = {
  async upsert(
    db: Queryable,
    member: { userId: string; companyId: string; fullName: string; roles: readonly string[] },
  ): Promise<void> {
    // An event of one company never rewrites a member of another.
    await db.query(
      `insert into incident.staff_member (user_id, company_id, full_name, roles) values ($1, $2, $3, $4)
       on conflict (user_id) do update set full_name = excluded.full_name, roles = excluded.roles
        where incident.staff_member.company_id = excluded.company_id`,
      [member.userId, member.companyId, member.fullName, member.roles],
    );
  },

  async markRemoved(db: Queryable, companyId: string, userId: string, at: string): Promise<void> {
    await db.query('update incident.staff_member set removed_at = $3 where company_id = $1 and user_id = $2', [
      companyId,
      userId,
      at,
    ]);
  },

  /** The company's current (not removed) members among `ids`. */
  async current(db: Queryable, companyId: string, ids: readonly string[]): Promise<StaffMemberRow[]> {
    if (ids.length === 0) return [];
    const { rows } = await db.query<StaffMemberRow>(
      `select user_id, full_name, roles from incident.staff_member
        where company_id = $1 and user_id = any($2::uuid[]) and removed_at is null`,
      [companyId, ids],
    );
    return rows;
  },

  /** Names of the company's members among `ids`, removed ones included (history keeps them). */
  async names(db: Queryable, companyId: string, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const { rows } = await db.query<{ user_id: string; full_name: string }>(
      'select user_id, full_name from incident.staff_member where company_id = $1 and user_id = any($2::uuid[])',
      [companyId, ids],
    );
    return new Map(rows.map((row) => [row.user_id, row.full_name]));
  },
};
