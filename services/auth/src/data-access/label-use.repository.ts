import type { Queryable } from '@whistle/service-kit';

/**
 * Which reporting labels and locations cases have carried, learnt from the incident service's events:
 * deleting one of those deactivates it instead, so the settings keep showing what old cases are filed under.
 */
export const labelUseRepository = {
  async record(db: Queryable, companyId: string, labelIds: readonly string[]): Promise<void> {
    await db.query(
      `insert into auth.label_in_use (label_id, company_id) select unnest($2::uuid[]), $1 on conflict do nothing`,
      [companyId, labelIds],
    );
  },

  async anyInUse(db: Queryable, companyId: string, labelIds: readonly string[]): Promise<boolean> {
    const { rows } = await db.query(
      'select 1 from auth.label_in_use where company_id = $1 and label_id = any($2::uuid[]) limit 1',
      [companyId, labelIds],
    );
    return rows.length > 0;
  },
};
