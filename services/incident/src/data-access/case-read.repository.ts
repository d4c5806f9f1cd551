import type { Queryable } from '@whistle/service-kit';

/** How far each staff member has read each case's thread: the time of the newest discloser message shown. */
export const caseReadRepository = {
  /**
   * Marks the case read by `userId` up to the discloser's message `messageId` (the newest of the thread just given
   * to them): a message sent meanwhile stays unread. The time is the stored one, microseconds and all, never one
   * through JavaScript's milliseconds; the mark never moves back.
   */
  async markRead(
    tx: Queryable,
    read: { companyId: string; incidentId: string; userId: string; messageId: string },
  ): Promise<void> {
    await tx.query(
      `insert into incident.case_read (incident_id, company_id, user_id, read_up_to)
       select m.incident_id, m.company_id, $3::uuid, m.created_at from incident.message m
        where m.company_id = $1 and m.incident_id = $2 and m.sender_source = 'DISCLOSER' and m.id = $4
       on conflict (incident_id, user_id)
         do update set read_up_to = greatest(case_read.read_up_to, excluded.read_up_to)`,
      [read.companyId, read.incidentId, read.userId, read.messageId],
    );
  },

  /**
   * How many discloser messages `userId` has not read, for each of `incidentIds` (a list page, already the cases
   * they may see) that has any: one query, each case's count an index-only range of message_discloser_idx after
   * its mark, so a long thread already read costs nothing (docs/performance.md).
   */
  async unreadCounts(
    db: Queryable,
    companyId: string,
    userId: string,
    incidentIds: readonly string[],
  ): Promise<Map<string, number>> {
    if (incidentIds.length === 0) return new Map();
    // The mark is looked up by primary key for each case, inside the count: joined, the planner scanned the whole
    // table of marks whenever it held few people's.
    const { rows } = await db.query<{ incident_id: string; unread: number }>(
      `select page.id as incident_id, unread.count as unread from unnest($3::uuid[]) as page (id)
         cross join lateral (
           select count(*)::int as count from incident.message m
            where m.incident_id = page.id and m.company_id = $1 and m.sender_source = 'DISCLOSER'
              and m.created_at > coalesce((
                select r.read_up_to from incident.case_read r
                 where r.incident_id = page.id and r.company_id = $1 and r.user_id = $2), '-infinity')) unread
        where unread.count > 0`,
      [companyId, userId, incidentIds],
    );
    return new Map(rows.map((row) => [row.incident_id, row.unread]));
  },
};
