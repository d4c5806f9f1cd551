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
    category: { id: string; companyId: string; parentId: string | null; name: string; isActive: boolean },
  ): Promise<void> {
    await db.query(
      `insert into incident.category (id, company_id, parent_id, name, is_active) values ($1, $2, $3, $4, $5)
       on conflict (id) do update set parent_id = excluded.parent_id, name = excluded.name, is_active = excluded.is_active`,
      [category.id, category.companyId, category.parentId, category.name, category.isActive],
    );
  },

  async upsertLocation(
    db: Queryable,
    location: { id: string; companyId: string; name: string; isActive: boolean },
  ): Promise<void> {
    await db.query(
      `insert into incident.location (id, company_id, name, is_active) values ($1, $2, $3, $4)
       on conflict (id) do update set name = excluded.name, is_active = excluded.is_active`,
      [location.id, location.companyId, location.name, location.isActive],
    );
  },

  async companyByUrlIdentifier(db: Queryable, urlIdentifier: string): Promise<{ id: string } | undefined> {
    const { rows } = await db.query<{ id: string }>('select id from incident.company where url_identifier = $1', [
      urlIdentifier,
    ]);
    return rows[0];
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

  async isActiveLocation(db: Queryable, companyId: string, id: string): Promise<boolean> {
    const { rows } = await db.query('select 1 from incident.location where company_id = $1 and id = $2 and is_active', [
      companyId,
      id,
    ]);
    return rows.length > 0;
  },

  /** Takes the company's next report number; the row lock serialises concurrent reports of one company. */
  async takeReportNumber(db: Queryable, companyId: string): Promise<number> {
    const { rows } = await db.query<{ number: number }>(
      'update incident.company set next_report_number = next_report_number + 1 where id = $1 returning next_report_number - 1 as number',
      [companyId],
    );
    return rows[0].number;
  },
};
