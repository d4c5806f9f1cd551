import type { Queryable } from '@whistle/service-kit';

/** Staff names and removals as auth announced them (`user.*` events): the audit's own read model. */
export const staffMemberRepository = {
  async upsert(db: Queryable, member: { userId: string; companyId: string; fullName: string }): Promise<void> {
    await db.query(
      `insert into audit.staff_member (user_id, company_id, full_name) values ($1, $2, $3)
       on conflict (user_id) do update set full_name = excluded.full_name
        where audit.staff_member.company_id = excluded.company_id`,
      [member.userId, member.companyId, member.fullName],
    );
  },

  async markRemoved(db: Queryable, companyId: string, userId: string, at: string): Promise<void> {
    await db.query('update audit.staff_member set removed_at = $3 where company_id = $1 and user_id = $2', [
      companyId,
      userId,
      at,
    ]);
  },

  async nameOf(db: Queryable, companyId: string | null, userId: string): Promise<string | undefined> {
    const { rows } = await db.query<{ full_name: string }>(
      'select full_name from audit.staff_member where company_id = $1 and user_id = $2',
      [companyId, userId],
    );
    return rows[0]?.full_name;
  },
};
