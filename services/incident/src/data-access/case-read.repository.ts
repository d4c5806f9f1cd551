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
       on conflict (incident_id, user_id) do update set read_up_to = greatest(case_read.read_up_to, excluded.read_up_to)`,
      [read.companyId, read.incidentId, read.userId, read.messageId],
    );
  },

  /**
   * How many discloser messages `userId` has not read, for each of `incidentIds` (a list page, already the cases
   * they may see) that has any: one query, each case's count from the end of message_discloser_idx.
   */
  async unreadCounts(
    db: Queryable,
    companyId: string,
    userId: string,
    incidentIds: readonly string[],
  ): Promise<Map<string, number>> {
    if (incidentIds.length === 0) return new Map();
    const { rows } = await db.query<{ incident_id: string; unread: number }>(
      `select m.incident_id, count(*)::int as unread from incident.message m
         left join incident.case_read r on r.incident_id = m.incident_id and r.company_id = $1 and r.user_id = $2
        where m.company_id = $1 and m.incident_id = any($3::uuid[]) and m.sender_source = 'DISCLOSER'
          and (r.read_up_to is null or m.created_at > r.read_up_to)
        group by m.incident_id`,
      [companyId, userId, incidentIds],
    );
    return new Map(rows.map((row) => [row.incident_id, row.unread]));
  },
};
