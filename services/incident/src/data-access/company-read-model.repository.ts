import type { Queryable } from '@whistle/service-kit';

/**
 * What the incident service knows of companies, their reporting labels and locations (kept from auth's
 * events), and each company's report counter. Upserts: a replayed event changes nothing.
 */
export const companyReadModelRepository = {
  async upsertCompany(db: Queryable, company: { id: string; urlIdentifier: string }): Promise<void> {
    await db.query('insert into incident.company (id, url_identifier) values ($1, $2) on conflict (id) do nothing', [
      company.id,
      company.urlIdentifier,
    ]);
  },

  async upsertCategory(
    db: Queryable,
    category: {
      id: string;
      companyId: string;
      parentId: string | null;
      name: string;
      isActive: boolean;
      assigneeIds?: readonly string[];
    },
  ): Promise<void> {
    await db.query(
      `insert into incident.category (id, company_id, parent_id, name, is_active, assignee_ids, deleted)
       values ($1, $2, $3, $4, $5, $6, false)
       on conflict (id) do update set parent_id = excluded.parent_id, name = excluded.name, is_active = excluded.is_active,
         assignee_ids = excluded.assignee_ids, deleted = false
        where incident.category.company_id = excluded.company_id`,
      [
        category.id,
        category.companyId,
        category.parentId,
        category.name,
        category.isActive,
        category.assigneeIds ?? [],
      ],
    );
  },

  /** Auth deleted the label: no new report takes it, and cases that have it keep its name. */
  async markCategoryDeleted(db: Queryable, companyId: string, id: string): Promise<void> {
    await db.query(
      `update incident.category set deleted = true, is_active = false, assignee_ids = '{}'
        where company_id = $1 and id = $2`,
      [companyId, id],
    );
  },

  /** After a label's rename: the cases using it sort by their first top-level label's current name. */
  async refreshSortCategory(db: Queryable, companyId: string, categoryId: string): Promise<void> {
    await db.query(
      `update incident.incident i set sort_category = coalesce((
         select c.name from incident.incident_category ic join incident.category c on c.id = ic.category_id
          where ic.incident_id = i.id and c.parent_id is null order by c.name limit 1), '')
        where i.company_id = $1 and i.id in (select incident_id from incident.incident_category where category_id = $2)`,
      [companyId, categoryId],
    );
  },

  async setResolutionDeadline(db: Queryable, companyId: string, days: number): Promise<void> {
    await db.query('update incident.company set resolution_deadline_days = $2 where id = $1', [companyId, days]);
  },

  async resolutionDeadlineDays(db: Queryable, companyId: string): Promise<number> {
    const { rows } = await db.query<{ days: number }>(
      'select resolution_deadline_days as days from incident.company where id = $1',
      [companyId],
    );
    return rows[0]?.days ?? 14;
  },

  async upsertLocation(
    db: Queryable,
    location: { id: string; companyId: string; name: string; isActive: boolean },
  ): Promise<void> {
    await db.query(
      `insert into incident.location (id, company_id, name, is_active) values ($1, $2, $3, $4)
       on conflict (id) do update set name = excluded.name, is_active = excluded.is_active
        where incident.location.company_id = excluded.company_id`,
      [location.id, location.companyId, location.name, location.isActive],
    );
  },

  /** Auth deleted the location: no new report takes it; cases keep its name. */
  async deactivateLocation(db: Queryable, companyId: string, id: string): Promise<void> {
    await db.query('update incident.location set is_active = false where company_id = $1 and id = $2', [companyId, id]);
  },

  /** The ids among `ids` that are active reporting labels of the company (a sub-label also needs an active parent). */
  async activeCategoryIds(db: Queryable, companyId: string, ids: readonly string[]): Promise<Set<string>> {
    const { rows } = await db.query<{ id: string }>(
      `select c.id from incident.category c
         left join incident.category parent on parent.company_id = c.company_id and parent.id = c.parent_id
        where c.company_id = $1 and c.id = any($2::uuid[]) and c.is_active and (c.parent_id is null or parent.is_active)`,
      [companyId, ids],
    );
    return new Set(rows.map((row) => row.id));
  },
};
