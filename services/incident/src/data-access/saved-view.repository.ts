import type { Queryable } from '@whistle/service-kit';

export interface SavedViewRow {
  id: string;
  name: string;
  filters: Record<string, unknown>;
  created_at: Date;
}

/** A staff member's saved views of the case list (migration 025): each query names the person and their company. */
export const savedViewRepository = {
  /** Their views, by name. */
  async listOf(db: Queryable, companyId: string, userId: string): Promise<SavedViewRow[]> {
    const { rows } = await db.query<SavedViewRow>(
      `select id, name, filters, created_at from incident.saved_view
        where company_id = $1 and user_id = $2 order by lower(name), name, id`,
      [companyId, userId],
    );
    return rows;
  },

  /**
   * Waits for the person's other saves to end (a transaction-scoped lock), so the count it answers stays true
   * until this transaction ends: two saves at once cannot both pass the limit.
   */
  async lockAndCount(db: Queryable, companyId: string, userId: string): Promise<number> {
    await db.query(`select pg_advisory_xact_lock(hashtextextended('incident.saved_view:' || $1::text, 0))`, [userId]);
    const { rows } = await db.query<{ count: number }>(
      'select count(*)::int as count from incident.saved_view where company_id = $1 and user_id = $2',
      [companyId, userId],
    );
    return rows[0]?.count ?? 0;
  },

  /** Saves a view; null when the person already has one of that name. */
  async insert(
    db: Queryable,
    view: { id: string; companyId: string; userId: string; name: string; filters: Record<string, unknown> },
  ): Promise<SavedViewRow | null> {
    const { rows } = await db.query<SavedViewRow>(
      `insert into incident.saved_view (id, company_id, user_id, name, filters) values ($1, $2, $3, $4, $5::jsonb)
       on conflict (company_id, user_id, name) do nothing
       returning id, name, filters, created_at`,
      [view.id, view.companyId, view.userId, view.name, JSON.stringify(view.filters)],
    );
    return rows[0] ?? null;
  },

  /** Deletes one of the person's views; false when they have none of that id. */
  async delete(db: Queryable, companyId: string, userId: string, id: string): Promise<boolean> {
    const { rowCount } = await db.query(
      'delete from incident.saved_view where company_id = $1 and user_id = $2 and id = $3',
      [companyId, userId, id],
    );
    return (rowCount ?? 0) > 0;
  },
};
